// The tool page's index panel API, through the route handlers, against a loopback embeddings server.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeEmbeddings, type FakeEmbeddingServer } from "@/lib/testing/embeddings-server";

let root: string;
let server: FakeEmbeddingServer;

async function configure(search: Record<string, unknown>) {
  const file = path.join(root, "settings.yaml");
  const llms = { offline: { provider: "offline" }, embedder: { provider: "openai-compatible", baseURL: server.baseURL, model: "concept-embed" } };
  fs.writeFileSync(file, JSON.stringify({ sourceRoot: path.join(root, "src"), runsRoot: path.join(root, "no-runs"), llms, search }));
  const { setLoadedSettings } = await import("@/lib/settings");
  const { loadSettings } = await import("@/lib/settings/load");
  setLoadedSettings(loadSettings({ files: [file], env: {} }));
}

const params = (name: string) => ({ params: Promise.resolve({ name }) });

beforeAll(async () => {
  server = await startFakeEmbeddings();
  root = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-index-route-"));
  fs.mkdirSync(path.join(root, "src"));
  for (let i = 0; i < 5; i++) fs.writeFileSync(path.join(root, "src", `f${i}.ts`), `export function handler${i}() { return ${i}; }\n`);
});

afterAll(async () => {
  await server.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe("/api/tools/[name]/index", () => {
  it("without an embedding model: BM25 only, and building is refused with a reason", async () => {
    await configure({});
    const { GET, POST } = await import("@/app/api/tools/[name]/index/route");
    expect(await (await GET(new Request("http://x"), params("search_code"))).json()).toEqual({
      tool: "search_code",
      model: null,
      status: null,
      building: false,
    });
    const refused = await POST(new Request("http://x", { method: "POST" }), params("search_code"));
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ code: "no_embedding_model" });
    expect((await GET(new Request("http://x"), params("read_file"))).status).toBe(404);
  });

  it("builds in the background and reports progress until every chunk is embedded", async () => {
    await configure({ embeddings: { type: "ref", ref: "embedder" } });
    const { GET, POST } = await import("@/app/api/tools/[name]/index/route");
    const started = await POST(new Request("http://x", { method: "POST" }), params("search_code"));
    expect(started.status).toBe(202);
    let view = (await started.json()) as { model: string; building: boolean; status: { docs: number; embedded: number; building: boolean } | null };
    expect(view.model).toBe("embedder/concept-embed");
    // Answered before the index exists: the view says a build runs, so the page keeps polling.
    expect(view.building).toBe(true);
    for (let i = 0; i < 100 && view.building; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      view = (await (await GET(new Request("http://x"), params("search_code"))).json()) as typeof view;
    }
    expect(view.status).toMatchObject({ docs: 5, embedded: 5, building: false });
    expect(view.building).toBe(false);
  });

  it("a runs index with no runs root says why", async () => {
    const { GET, POST } = await import("@/app/api/tools/[name]/index/route");
    await POST(new Request("http://x", { method: "POST" }), params("search_run_artifacts"));
    let view: { lastError?: string } = {};
    for (let i = 0; i < 100 && !view.lastError; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      view = (await (await GET(new Request("http://x"), params("search_run_artifacts"))).json()) as typeof view;
    }
    expect(view.lastError).toMatch(/no-runs/);
  });
});
