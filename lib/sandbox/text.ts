import { isAscii } from "node:buffer";

/** Bytes sniffed for a NUL to call a file binary (what git and grep do). */
const SNIFF_BYTES = 8000;

export function looksBinary(buf: Uint8Array): boolean {
  const end = Math.min(buf.length, SNIFF_BYTES);
  for (let i = 0; i < end; i++) if (buf[i] === 0) return true;
  return false;
}

/**
 * Decodes file bytes as text. Pure-ASCII files (most source) take the latin1 path, which V8 keeps
 * as one-byte strings: faster to build and to regex-scan, and identical in content.
 */
export function decodeText(buf: Buffer): string {
  return isAscii(buf) ? buf.toString("latin1") : buf.toString("utf8");
}
