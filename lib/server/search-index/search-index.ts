import "server-only";
import fs from "node:fs";
import { buildEmbeddings } from "@/lib/builtins/semantic/build";
import { semanticStatuses, type IndexKind } from "@/lib/builtins/semantic/indexes";
import type { SemanticStatus } from "@/lib/builtins/semantic/semantic-index";
import { audit } from "@/lib/server/auth/audit";
import { createToolContext } from "@/lib/server/runtime/tool-context";
import { runsRootOf, sourceRootOf } from "@/lib/settings";
import { getSettings } from "@/lib/settings";
import { HttpError } from "@/lib/server/http/http-error";

/** The tools whose page shows an embedding index. */
export const INDEXED_TOOLS: Record<string, IndexKind> = { search_code: "code", search_run_artifacts: "runs" };

export interface SearchIndexView {
  tool: string;
  /** The embedding model search.embeddings names (`entry/model`), or null: BM25 alone. */
  model: string | null;
  /** Why the configured model cannot be used, if it cannot. */
  problem?: string;
  /** Null until the index was built or queried in this server process. */
  status: SemanticStatus | null;
  /** Why the last build started from this page ended without an index (no runs root, …). */
  lastError?: string;
  /** A build started from this page is running (before its index exists, `status` is still null). */
  building: boolean;
}

const lastErrors = new Map<string, string>();
const running = new Set<string>();

function kindOf(tool: string): IndexKind {
  const kind = INDEXED_TOOLS[tool];
  if (!kind) throw new HttpError(404, `${tool} has no search index.`, "no_index");
  return kind;
}

export function searchIndexView(tool: string): SearchIndexView {
  const kind = kindOf(tool);
  const settings = getSettings();
  const ctx = createToolContext({ settings, toolName: tool });
  let model: string | null = null;
  let problem: string | undefined;
  try {
    model = ctx.embeddings?.()?.id ?? null;
  } catch (error) {
    problem = (error as Error).message;
  }
  const root = kind === "code" ? sourceRootOf(settings) : runsRootOf(settings);
  // The roots the index keys by are real paths; the settings' may be relative or symlinked.
  const status = model ? (semanticStatuses().find((s) => s.kind === kind && s.status.model === model && sameRoot(s.root, root))?.status ?? null) : null;
  const lastError = lastErrors.get(tool);
  return {
    tool,
    model,
    ...(problem ? { problem } : {}),
    status,
    ...(lastError ? { lastError } : {}),
    building: running.has(tool) || Boolean(status?.building),
  };
}

function sameRoot(indexed: string, configured: string): boolean {
  try {
    return indexed === fs.realpathSync(configured);
  } catch {
    return false;
  }
}

/** Starts a build in the background (one per tool at a time) and answers at once with the view. */
export async function startSearchIndexBuild(tool: string): Promise<SearchIndexView> {
  const kind = kindOf(tool);
  const view = searchIndexView(tool);
  if (!view.model)
    throw new HttpError(409, view.problem ?? "settings search.embeddings names no embedding model: there is nothing to embed.", "no_embedding_model");
  if (!running.has(tool)) {
    running.add(tool);
    lastErrors.delete(tool);
    const ctx = createToolContext({ settings: getSettings(), toolName: tool });
    void buildEmbeddings({ kind, ctx })
      .then((result) => {
        if (result.docs === undefined) lastErrors.set(tool, result.error);
      })
      .catch((error: unknown) => lastErrors.set(tool, (error as Error).message))
      .finally(() => running.delete(tool));
    // It spends the embedding provider's calls on everyone's behalf: who asked is kept.
    await audit("search-index.build-started", tool, { model: view.model });
  }
  return searchIndexView(tool);
}
