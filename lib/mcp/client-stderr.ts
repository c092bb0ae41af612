/** How much of a server's stderr is kept: enough for a stack trace, bounded against a chatty server. */
const STDERR_LIMIT = 16 * 1024;

/** The last characters a server wrote to stderr, shown on the diagnostics panel when it fails. */
export class StderrTail {
  private buffer = "";
  private dropped = false;

  constructor(private readonly limit = STDERR_LIMIT) {}

  append(chunk: Buffer | string): void {
    this.buffer += typeof chunk === "string" ? chunk : chunk.toString("utf8");
    if (this.buffer.length > this.limit) {
      this.buffer = this.buffer.slice(this.buffer.length - this.limit);
      this.dropped = true;
    }
  }

  text(): string {
    const text = this.buffer.trimEnd();
    return this.dropped && text ? `…(earlier output dropped)\n${text}` : text;
  }
}
