import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { type ArtifactTask, runTask, type TaskResult } from "./tasks";

/** Runs whose artifacts together stay under this are read in-thread: a worker start (~50 ms) would cost more than the parse. */
export const INLINE_MAX_BYTES = 1024 * 1024;
/** At most this many parse workers at once; more tasks wait their turn. Each may hold ~10× its file in memory. */
const MAX_WORKERS = Math.max(1, Math.min(2, os.availableParallelism() - 1));
const DEFAULT_TIMEOUT_MS = 120_000;

let running = 0;
const waiting: (() => void)[] = [];

async function slot<T>(fn: () => Promise<T>): Promise<T> {
  if (running >= MAX_WORKERS) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await fn();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/** Defined (true) only in the CLI's bundle, by esbuild. */
declare const __TOOLROOM_CLI_BUNDLE__: boolean | undefined;

/**
 * Starts a worker on artifact.worker. In `next build` Turbopack bundles the worker entry from the
 * `new Worker(new URL(…, import.meta.url))` below. Outside Next (vitest, tsx: no NEXT_RUNTIME) the
 * worker is the .ts source, which Node 20 runs only with a TypeScript loader: it registers tsx first.
 */
function startWorker(): Worker {
  // The CLI's bundle (bin/bundle.mjs) holds the worker, bundled too, beside itself. (Not a
  // `new URL(literal, import.meta.url)`: Turbopack would look for that file at build time.)
  if (typeof __TOOLROOM_CLI_BUNDLE__ !== "undefined") return new Worker(new URL(import.meta.url.replace(/[^/]*$/, "artifact.worker.mjs")));
  // Not import.meta.url: Turbopack keeps the source file's URL there, `.ts` included.
  if (!process.env.NEXT_RUNTIME) {
    // The ESM entry of tsx/esm/api (require.resolve would give its CommonJS one).
    const tsx = path.join(path.dirname(createRequire(import.meta.url).resolve("tsx/package.json")), "dist/esm/api/index.mjs");
    const entry = new URL("./artifact.worker.ts", import.meta.url).href;
    return new Worker(`import(${JSON.stringify(pathToFileURL(tsx).href)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); });`, {
      eval: true,
    });
  }
  return new Worker(new URL("./artifact.worker.ts", import.meta.url));
}

/** Runs one task in a fresh worker, bounded in time; the worker is terminated afterwards either way. */
function inWorker<T extends ArtifactTask>(task: T, timeoutMs: number): Promise<TaskResult<T>> {
  return slot(
    () =>
      new Promise<TaskResult<T>>((resolve, reject) => {
        const worker = startWorker();
        const timer = setTimeout(() => {
          void worker.terminate();
          reject(new Error(`reading the run took longer than ${Math.round(timeoutMs / 1000)} s; stopped`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          void worker.terminate();
        };
        worker.once("message", (m: { ok: true; result: TaskResult<T> } | { ok: false; error: string }) => {
          done();
          if (m.ok) resolve(m.result);
          else reject(new Error(m.error));
        });
        worker.once("error", (e) => {
          done();
          reject(e);
        });
        worker.once("exit", (code) => {
          clearTimeout(timer);
          reject(new Error(`the parse worker exited with code ${code} before answering`));
        });
        worker.postMessage(task);
      }),
  );
}

/**
 * Runs an artifact task: in a worker thread when the run's artifacts total `bytes` or more than
 * `inlineMaxBytes`, else in-thread. Never parses a big file on the caller's thread.
 */
export function runArtifactTask<T extends ArtifactTask>(
  task: T,
  bytes: number,
  options: { inlineMaxBytes?: number; timeoutMs?: number } = {},
): Promise<TaskResult<T>> {
  if (bytes <= (options.inlineMaxBytes ?? INLINE_MAX_BYTES)) return Promise.resolve().then(() => runTask(task));
  return inWorker(task, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
}
