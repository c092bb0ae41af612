import { discoverRuns } from "@/lib/artifacts";
import { resolveWithin } from "@/lib/sandbox/resolve";
import { cacheDirFor } from "@/lib/sandbox/file-index";
import type { ToolContext } from "@/lib/tools/types";
import { runsVectorIndex } from "../runs";
import { searchIndexFor } from "../search";
import { embeddingsChoice } from "./hybrid-search";
import { codeSemanticIndex, type IndexKind } from "./indexes";
import type { SemanticStatus } from "./semantic-index";

export type BuildResult = SemanticStatus | { error: string; docs?: undefined };

/**
 * Builds (or refreshes) one kind of index to the end, as `toolroom index` does: the lexical index,
 * then every chunk not embedded yet. A query does the same in the background, waiting only briefly.
 */
export async function buildEmbeddings(options: {
  kind: IndexKind;
  ctx: ToolContext;
  onProgress?: (done: number, total: number) => void;
}): Promise<BuildResult> {
  const { kind, ctx } = options;
  const choice = embeddingsChoice(ctx);
  if (choice.error) return { error: choice.error };
  if (!choice.config) return { error: "settings search.embeddings names no embedding model: the search tools use BM25 alone" };
  const config = choice.config;
  const root = resolveWithin(kind === "code" ? ctx.sourceRoot : ctx.runsRoot, ".", { label: kind === "code" ? "source root" : "runs root" });
  if (!root.ok) return { error: root.error.replace(/^Error: /, "") };
  let index;
  if (kind === "code") {
    const state = await searchIndexFor(root.root, ctx.settings, ctx.signal);
    index = codeSemanticIndex(root.root, cacheDirFor(root.root, ctx.settings), config, state.files);
  } else {
    const found = discoverRuns(root.root);
    if (found.error) return { error: found.error };
    index = runsVectorIndex(root.root, found.runs, ctx, config);
  }
  await index.build(ctx.signal, options.onProgress);
  return index.status();
}
