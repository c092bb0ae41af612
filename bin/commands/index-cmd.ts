import type { Command } from "commander";
import { buildEmbeddings, type BuildResult } from "@/lib/builtins/semantic/build";
import type { IndexKind } from "@/lib/builtins/semantic/indexes";
import { createToolContext } from "@/lib/server/runtime/tool-context";
import { CliExit, cliSettings } from "../context";
import { progressBar, progressLine, type BarStyle, type ProgressOut } from "./progress-line";
import { out } from "../stdout";

const TOOL_OF: Record<IndexKind, string> = { code: "search_code", runs: "search_run_artifacts" };

const BAR: BarStyle = { width: 30, done: "#", todo: "-" };

/** Chunks embedded so far, on one line that rewrites itself on a terminal; nothing when stderr is a pipe (logs stay clean). */
export function chunkProgress(label: string, out: ProgressOut = process.stderr) {
  const line = progressLine(out);
  let last = -1;
  return {
    update: (done: number, total: number) => {
      if (total === 0) return;
      // A big index reports thousands of chunks: redraw once per percent.
      const percent = Math.floor((done / total) * 100);
      if (percent === last) return;
      last = percent;
      line.draw(`${label} [${progressBar(done, total, BAR)}] ${done}/${total} chunks`);
    },
    end: () => line.end(),
  };
}

function describeResult(kind: IndexKind, result: BuildResult): string {
  if (result.docs === undefined) return `${TOOL_OF[kind]}: ${result.error}`;
  const parts = [`${result.embedded} of ${result.docs} ${kind === "code" ? "chunks" : "documents"} embedded with ${result.model}`];
  if (result.capped) parts.push(`${result.capped} left out by search.maxEmbedChunks`);
  if (result.error) parts.push(`stopped: ${result.error} (run again to resume)`);
  return `${TOOL_OF[kind]}: ${parts.join("; ")}`;
}

export function registerIndex(program: Command): void {
  program
    .command("index")
    .description("build or refresh the embedding indexes of search_code and search_run_artifacts (settings search.embeddings)")
    .option("--json", "print the result of each index as JSON")
    .action(async (options: { json?: boolean }) => {
      const { settings } = cliSettings(program.opts<{ config?: string }>().config);
      if (!settings.search.embeddings) {
        throw new CliExit(
          2,
          "toolroom: settings search.embeddings names no embedding model, so the search tools use BM25 alone and there is nothing to embed.",
        );
      }
      const controller = new AbortController();
      process.once("SIGINT", () => controller.abort());
      const results: Record<string, BuildResult> = {};
      for (const kind of ["code", "runs"] as const) {
        const ctx = createToolContext({ settings, toolName: TOOL_OF[kind], signal: controller.signal });
        const progress = chunkProgress(TOOL_OF[kind]);
        const result = await buildEmbeddings({ kind, ctx, onProgress: options.json ? undefined : progress.update });
        progress.end();
        results[TOOL_OF[kind]] = result;
        if (!options.json) out(`${describeResult(kind, result)}\n`);
      }
      if (options.json) out(`${JSON.stringify(results, null, 2)}\n`);
      // A failed code index is a failure; a missing runs root is not (many projects have no runs).
      const code = results.search_code!;
      if (code.docs === undefined || code.error) throw new CliExit(1);
    });
}
