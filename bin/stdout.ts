import { Writable } from "node:stream";
import { format } from "node:util";

/**
 * stdout belongs to the command: its answer, the JSON a script parses, or (under `toolroom mcp`)
 * the protocol. Plugin code and the libraries it uses print there too — a debug line at import, a
 * console.log while a tool runs — so once a command starts, process.stdout writes to stderr and
 * the command's own output goes through `out`, the real stdout kept here.
 */
let command: NodeJS.WriteStream["write"] | null = null;

/** From here on, only `out` writes to stdout; anything else written to process.stdout goes to stderr. */
export function reserveStdout(): void {
  if (command) return;
  command = process.stdout.write.bind(process.stdout);
  process.stdout.write = process.stderr.write.bind(process.stderr);
}

/** The command's own output. Before reserveStdout (a test calling a command in-process) it is plain stdout. */
export function out(chunk: string | Uint8Array, done?: (error?: Error | null) => void): boolean {
  const write = command ?? process.stdout.write.bind(process.stdout);
  return done ? write(chunk, done) : write(chunk);
}

/** console.log's formatting, to the command's stdout. */
export function outLine(...values: unknown[]): void {
  out(`${format(...values)}\n`);
}

/** The command's stdout as a stream, for writers that take one (the MCP stdio transport, ask's printer). */
export function commandStdout(): Writable {
  return new Writable({
    write: (chunk: Buffer, _encoding, done) =>
      void out(chunk, (error) => {
        // The reader has gone (an MCP client that quit, `| head`): the command ends quietly, as
        // exitQuietlyOnClosedPipe does for process.stdout, instead of an unhandled EPIPE.
        if (error && "code" in error && error.code === "EPIPE") process.exit(0);
        done(error);
      }),
  });
}
