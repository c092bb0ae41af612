import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * Marker files that tools under test create (`touch <marker>`), kept in the suite's throwaway state
 * folder so a failed or retried test leaves nothing in the repository.
 */
// One folder per worker: lanes run side by side, and each removes its own markers after a test.
const folder = path.join(process.env.E2E_STATE ?? os.tmpdir(), "markers", process.env.TEST_PARALLEL_INDEX ?? "0");

export function marker(name: string): string {
  fs.mkdirSync(folder, { recursive: true });
  return path.join(folder, `e2e-marker-${name}-${Date.now()}.txt`);
}

export const markerExists = (file: string) => fs.existsSync(file);

export function removeMarkers() {
  fs.rmSync(folder, { recursive: true, force: true });
}
