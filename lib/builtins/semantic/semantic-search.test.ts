// search_code and search_run_artifacts with an embedding model: the production path (settings →
// model resolver → @ai-sdk/openai-compatible → HTTP) against a loopback /v1/embeddings whose
// vectors put related words close, so a question sharing no word with the code can be tested.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createModelResolver } from "@/lib/chat/models";
import { settingsSchema } from "@/lib/settings/schema";
import { startFakeEmbeddings, type FakeEmbeddingServer } from "@/lib/testing/embeddings-server";
import { testContext } from "@/lib/testing/context";
import type { EmbeddingsConfig, ToolContext } from "@/lib/tools/types";
import { hybridSearchRunArtifacts, searchRunArtifacts } from "../runs";
import { hybridSearchCode, searchCode } from "../search";
import { buildEmbeddings } from "./build";
import { semanticStatuses } from "./indexes";
import { VectorCache } from "./vector-cache";

let server: FakeEmbeddingServer;
let root: string;
let runsRoot: string;

const FILES: Record<string, string> = {
  "src/users/passwords.ts": `import bcrypt from "bcryptjs";

/** Compares what a person typed with the stored bcrypt hash. */
export async function verifyPassword(typed: string, storedHash: string): Promise<boolean> {
  return bcrypt.compare(typed, storedHash);
}
`,
  "src/store/sqlite.ts": `export function openDatabase(file: string) {
  return new Database(file);
}

export function saveRow(db: Database, table: string, row: object) {
  db.insert(table, row);
}
`,
  "src/net/fetch.ts": `export async function fetchJson(url: string) {
  const response = await fetch(url);
  return response.json();
}
`,
  "src/ui/colors.ts": `export const palette = { accent: "#0a7", muted: "#888" };
`,
  "README.md": "# Demo\n\nA small tree for ranking tests.\n",
};

function embeddingsFor(baseURL: string, maxChunks = 50_000): EmbeddingsConfig {
  const settings = settingsSchema.parse({
    llms: { embedder: { provider: "openai-compatible", baseURL, model: "concept-embed" } },
    search: { embeddings: { type: "ref", ref: "embedder" }, maxEmbedChunks: maxChunks },
  });
  return { ...createModelResolver(settings).embedding(settings.search.embeddings!), maxChunks };
}

function context(config: EmbeddingsConfig | null | (() => EmbeddingsConfig | null)): ToolContext {
  return testContext({
    sourceRoot: root,
    runsRoot,
    settings: { refreshIntervalMs: 0 },
    embeddings: typeof config === "function" ? config : () => config,
  });
}

const firstPath = (out: string) => /^--- Result 1: (\S+) \(lines \d+-\d+\) ---/.exec(out)?.[1] ?? null;
const QUESTION = "where do we check authentication?";

beforeAll(async () => {
  server = await startFakeEmbeddings();
  root = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-semantic-"));
  for (const [rel, text] of Object.entries(FILES)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  runsRoot = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-semantic-runs-"));
  const run = path.join(runsRoot, "T1", "train", "20261130");
  fs.mkdirSync(run, { recursive: true });
  fs.writeFileSync(
    path.join(run, "matrix.json"),
    JSON.stringify({
      cells: [
        { name: "bf16", trials: 2, failed_count: 1, failure_rate: 0.5, failure_hints: [["loss became NaN after the gradient blew up at step 400", 1]] },
        { name: "fp32", trials: 2, failed_count: 0, failure_rate: 0 },
      ],
    }),
  );
});

afterAll(async () => {
  await server.close();
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(runsRoot, { recursive: true, force: true });
});

describe("search_code with embeddings", () => {
  it("BM25 alone finds nothing for a question that shares no word with the code", async () => {
    const out = String(await searchCode.execute({ query: QUESTION, k: 3 }, context(null)));
    expect(out).toBe(`No results for "${QUESTION}".`);
  });

  it("hybrid search ranks the file defining verifyPassword first, and says what it used", async () => {
    const out = String(await hybridSearchCode.execute({ query: QUESTION, k: 3 }, context(embeddingsFor(server.baseURL))));
    expect(firstPath(out)).toBe("src/users/passwords.ts");
    expect(out).toContain("export async function verifyPassword");
    expect(out.trim().split("\n").at(-1)).toBe("Search: BM25 + embeddings (embedder/concept-embed).");
    // Every chunk was embedded once, plus the question.
    expect(server.inputs.filter((t) => t.startsWith("src/users/passwords.ts\n"))).toHaveLength(1);
    expect(semanticStatuses().find((s) => s.kind === "code")?.status).toMatchObject({ docs: 5, embedded: 5, building: false, capped: 0 });
  });

  it("after an edit only the edited file's chunks are embedded again", async () => {
    const config = embeddingsFor(server.baseURL);
    const before = server.inputs.length;
    fs.appendFileSync(path.join(root, "src/net/fetch.ts"), "\nexport const TIMEOUT_MS = 5000;\n");
    const out = String(await hybridSearchCode.execute({ query: "request deadline", k: 2 }, context(config)));
    expect(firstPath(out)).toBe("src/net/fetch.ts");
    const embedded = server.inputs.slice(before);
    expect(embedded.filter((t) => t !== "request deadline")).toEqual([expect.stringMatching(/^src\/net\/fetch\.ts\n/)]);
  });

  it("an embedding server that fails: BM25 answers and says so, the cache stays whole, the next build resumes", async () => {
    const cacheFile = path.join(fs.realpathSync(root), ".toolroom", "cache", "embeddings.sqlite");
    const rowsBefore = new VectorCache(cacheFile);
    const { rows } = rowsBefore.stats();
    rowsBefore.close();
    expect(rows).toBeGreaterThanOrEqual(5);

    fs.writeFileSync(path.join(root, "src/users/login.ts"), "export function loginForm() { return renderForm(); }\n");
    server.failWith = 503;
    const down = String(await hybridSearchCode.execute({ query: "palette accent", k: 2 }, context(embeddingsFor(server.baseURL))));
    expect(firstPath(down)).toBe("src/ui/colors.ts");
    expect(down.trim().split("\n").at(-1)).toMatch(/^Note: the embedding model embedder\/concept-embed failed \(.+\); BM25 results only\.$/);

    server.failWith = null;
    const cache = new VectorCache(cacheFile);
    expect(cache.stats().rows).toBe(rows);
    cache.close();
    const stopped = semanticStatuses().find((s) => s.kind === "code")!.status;
    expect(stopped.embedded).toBe(stopped.docs - 1);
    expect(stopped.error).toMatch(/embedding backend unavailable/);

    // The next build (as `toolroom index` runs it) embeds only what is missing.
    const before = server.inputs.length;
    const built = await buildEmbeddings({ kind: "code", ctx: context(embeddingsFor(server.baseURL)) });
    expect(built).toMatchObject({ docs: stopped.docs, embedded: stopped.docs });
    expect(built.error).toBeUndefined();
    expect(server.inputs.slice(before)).toEqual([expect.stringMatching(/^src\/users\/login\.ts\n/)]);
  });

  it("an embedding model that cannot be made (an offline entry) falls back to BM25 and names why", async () => {
    const out = String(
      await hybridSearchCode.execute(
        { query: "palette", k: 1 },
        context(() => {
          throw new Error("llms.offline (offline) has no embedding models; use an openai or openai-compatible entry");
        }),
      ),
    );
    expect(firstPath(out)).toBe("src/ui/colors.ts");
    expect(out).toContain("Note: embeddings unavailable (llms.offline (offline) has no embedding models");
  });

  it("the cap on chunks per build is reported", async () => {
    fs.writeFileSync(path.join(root, "src/store/cache.ts"), "export function persistRows() {}\n");
    fs.writeFileSync(path.join(root, "src/store/more.ts"), "export function storeTable() {}\n");
    const out = String(await hybridSearchCode.execute({ query: "database storage", k: 3 }, context(embeddingsFor(server.baseURL, 1))));
    expect(firstPath(out)).toMatch(/^src\/store\//);
    expect(out).toMatch(/Search: BM25 \+ embeddings \(embedder\/concept-embed\); \d+ of \d+ chunks embedded; 1 chunks left out by search\.maxEmbedChunks\./);
  });
});

describe("search_run_artifacts with embeddings", () => {
  it("finds a failure hint by meaning", async () => {
    const out = String(await hybridSearchRunArtifacts.execute({ query: "numerical instability", k: 2 }, context(embeddingsFor(server.baseURL))));
    expect(out.split("\n")[0]).toMatch(/^1\. T1\/train\/20261130 — /);
    expect(out).toContain("loss became NaN");
    expect(out).toContain("Search: BM25 + embeddings (embedder/concept-embed)");
    expect(String(await searchRunArtifacts.execute({ query: "numerical instability", k: 2 }, context(null)))).toMatch(/^No matches/);
  });
});
