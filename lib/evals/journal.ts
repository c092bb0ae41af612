import fs from "node:fs";
import path from "node:path";
import type { TrialRecord } from "./runner";

/** The CLI's record of a run as it goes, beside the run's other files: one trial a line. */
export const JOURNAL = "trials.jsonl";

/**
 * Appends each finished trial to `dir/trials.jsonl` (one write of one line each, so a crash loses at
 * most the line being written); `readJournal` reads back what finished.
 */
export function openJournal(dir: string) {
  const file = path.join(dir, JOURNAL);
  const fd = fs.openSync(file, "a");
  return {
    file,
    append(record: TrialRecord): void {
      fs.writeSync(fd, `${JSON.stringify(record)}\n`);
    },
    close(): void {
      fs.closeSync(fd);
    },
  };
}

/** The trials a journal holds; a last line cut off by a crash is left out. */
export function readJournal(dir: string): TrialRecord[] {
  const file = path.join(dir, JOURNAL);
  if (!fs.existsSync(file)) return [];
  const records: TrialRecord[] = [];
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    if (!line.trim()) continue;
    try {
      records.push(JSON.parse(line) as TrialRecord);
    } catch {
      // Only the last line can be partial (appends are whole lines); nothing after it to keep.
    }
  }
  return records;
}
