import fs from "node:fs";
import path from "node:path";
import { faultMessage } from "./faults";

/** Below this much free space a write may fail half-way through a turn; doctor calls it full. */
const MIN_FREE_BYTES = 1024 * 1024;

/**
 * What `toolroom doctor` can see from outside the server of the faults the server answers 503
 * for: a read-only file or folder, a full disk, and a server still holding a removed file.
 * Returns the problem as the server would word it, or null.
 */
export function databaseFileProblem(file: string, procRoot = "/proc"): string | null {
  const holders = processesHoldingRemoved(file, procRoot);
  if (holders.length) return `${faultMessage("moved", file)} (still open in process ${holders.join(", ")})`;
  if (!fs.existsSync(file)) return null;
  for (const target of [file, path.dirname(file)]) {
    try {
      fs.accessSync(target, fs.constants.W_OK);
    } catch {
      return faultMessage("readonly", file);
    }
  }
  const { bavail, bsize } = fs.statfsSync(path.dirname(file));
  if (bavail * bsize < MIN_FREE_BYTES) return `${faultMessage("full", file)} (${Math.floor((bavail * bsize) / 1024)} KiB free)`;
  return null;
}

/** Processes (Linux /proc) with `file` open although it was deleted: a server that must be restarted. */
function processesHoldingRemoved(file: string, procRoot: string): number[] {
  const deleted = `${file} (deleted)`;
  const pids: number[] = [];
  let entries: string[];
  try {
    entries = fs.readdirSync(procRoot).filter((name) => /^\d+$/.test(name));
  } catch {
    return pids;
  }
  for (const pid of entries) {
    let fds: string[];
    try {
      fds = fs.readdirSync(path.join(procRoot, pid, "fd"));
    } catch {
      continue;
    }
    if (fds.some((fd) => readlinkOrNull(path.join(procRoot, pid, "fd", fd)) === deleted)) pids.push(Number(pid));
  }
  return pids;
}

function readlinkOrNull(link: string): string | null {
  try {
    return fs.readlinkSync(link);
  } catch {
    return null;
  }
}
