import fs from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { locateImportError } from "./import-error";
import { parseEntry, type PluginPackage } from "./manifest";
import type { Diagnostic } from "./registry-types";

/** A manifest entry's module, imported; or the diagnostic that says why it could not be. */
export type EntryModule = { module: Record<string, unknown>; file: string; exportName: string; stamp: number } | { diagnostic: Diagnostic };

class ImportTimeout extends Error {}

/**
 * Imports not settled yet, by URL, with when the first began. Node hands every later import() of
 * the URL the same promise, pending forever when the module's top-level await never settles: a tool,
 * a resource and a prompt of one module, or the next reload, would each wait the whole bound again.
 */
interface PendingImport {
  imported: Promise<Record<string, unknown>>;
  since: number;
}
const pending = ((globalThis as unknown as { __toolroomPendingImports?: Map<string, PendingImport> }).__toolroomPendingImports ??= new Map<
  string,
  PendingImport
>());

/**
 * The module, or an ImportTimeout `timeoutMs` after the first import of `url` began: a top-level
 * await that never settles must not hold the registry (the import itself cannot be cancelled).
 * The timer keeps the process alive while it waits: unreferenced, a command or `npm start`'s
 * preflight with nothing else to wait for would end right there ("unsettled top-level await", exit 13).
 */
function importWithin(url: string, timeoutMs: number): Promise<Record<string, unknown>> {
  const now = Date.now();
  let started = pending.get(url);
  if (!started) {
    const imported = import(/* webpackIgnore: true */ /* turbopackIgnore: true */ url) as Promise<Record<string, unknown>>;
    started = { imported, since: now };
    pending.set(url, started);
    // Once settled, Node's own module cache answers the next import at once.
    void imported.then(
      () => pending.delete(url),
      () => pending.delete(url),
    );
  }
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ImportTimeout()), Math.max(0, started.since + timeoutMs - now));
  });
  return Promise.race([started.imported, timeout]).finally(() => clearTimeout(timer));
}

function seconds(ms: number): string {
  return `${Math.round((ms / 1000) * 10) / 10} s`;
}

/**
 * Imports the module a manifest entry ("./dist/tools.js#myTool") names, for tools, resources and
 * prompts alike: inside the package folder only, bounded by `timeoutMs`, and afresh after an edit.
 * `example` is the entry shown in the hint for a malformed one.
 */
export async function importEntry(pkg: PluginPackage, name: string, spec: unknown, timeoutMs: number, example: string): Promise<EntryModule> {
  const base = { package: pkg.name, version: pkg.version, entry: name };
  if (typeof spec !== "string" || !spec.trim()) {
    return {
      diagnostic: {
        ...base,
        kind: "bad-manifest",
        message: `the manifest entry for "${name}" is not a "file#export" string`,
        hint: `Write it as "${example}".`,
      },
    };
  }
  const { file, exportName } = parseEntry(spec);
  const absolute = path.resolve(pkg.dir, file);
  if (path.relative(pkg.dir, absolute).startsWith("..")) {
    return {
      diagnostic: {
        ...base,
        kind: "bad-manifest",
        message: `entry "${spec}" points outside the package folder`,
        hint: "Entries must name a file inside the package.",
      },
    };
  }
  // The URL carries the file's modification time: an edited entry is imported afresh on the next
  // reload (Node caches modules by URL, for the life of the process), an unchanged one is reused.
  const stamp = await fs
    .stat(absolute)
    .then((s) => Math.trunc(s.mtimeMs))
    .catch(() => 0);
  try {
    return { module: await importWithin(`${pathToFileURL(absolute).href}?v=${stamp}`, timeoutMs), file, exportName, stamp };
  } catch (error) {
    if (error instanceof ImportTimeout) {
      return {
        diagnostic: {
          ...base,
          kind: "import-timed-out",
          message: `importing ${spec} did not finish within ${seconds(timeoutMs)}`,
          hint: `Look for a top-level await that never settles (a promise nothing resolves, a server it waits for) in ${file} or what it imports; or raise plugins.importTimeoutSeconds.`,
        },
      };
    }
    const err = error instanceof Error ? error : new Error(String(error));
    const location = await locateImportError(err, absolute, pkg.dir);
    const where = location ? `${location.file}:${location.line}:${location.column}` : "";
    return {
      diagnostic: {
        ...base,
        kind: "import-failed",
        message: `importing ${spec} failed: ${err.message}${where ? ` (at ${where})` : ""}`,
        stack: err.stack,
        ...(location ? { location } : {}),
        hint: where ? `Fix the error at ${where}, or remove the package.` : "Fix the error in the plugin's module (its stack is below), or remove the package.",
      },
    };
  }
}
