/**
 * A parse worker: reads, validates and shapes one run's artifacts off the server's request
 * thread, answers once and is terminated by the pool (which frees the parsed JSON with it).
 */
import { parentPort } from "node:worker_threads";
import { type ArtifactTask, runTask } from "./tasks";

parentPort?.once("message", (task: ArtifactTask) => {
  try {
    parentPort?.postMessage({ ok: true, result: runTask(task) });
  } catch (e) {
    parentPort?.postMessage({ ok: false, error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  }
});
