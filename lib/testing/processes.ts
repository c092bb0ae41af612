/** Whether a process with this pid exists (signal 0 checks, sends nothing). */
export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
