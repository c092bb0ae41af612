import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** Writes a bench's own section of bench/RESULTS.md: replaces the one under `heading`, else appends it. */
export function writeResultsSection(heading: string, section: string): void {
  const file = path.join(import.meta.dirname, "RESULTS.md");
  const old = fs.readFileSync(file, "utf8");
  const at = old.indexOf(heading);
  if (at < 0) return fs.writeFileSync(file, `${old.trimEnd()}\n\n${section.trimEnd()}\n`);
  const next = old.indexOf("\n## ", at + heading.length);
  fs.writeFileSync(file, `${old.slice(0, at)}${section.trimEnd()}\n${next < 0 ? "" : old.slice(next)}`);
}

/** The load average now, as the sections print it. */
export function loadAverage(): string {
  return os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
}
