import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runToolroom } from "@/lib/testing/cli";
import { startFakeEmbeddings, type FakeEmbeddingServer } from "@/lib/testing/embeddings-server";

let root: string;
let server: FakeEmbeddingServer;

function writeConfig(name: string, search: Record<string, unknown>): string {
  const file = path.join(root, name);
  const llms = { offline: { provider: "offline" }, embedder: { provider: "openai-compatible", baseURL: server.baseURL, model: "concept-embed" } };
  fs.writeFileSync(file, JSON.stringify({ sourceRoot: path.join(root, "src"), runsRoot: path.join(root, "runs"), llms, search }));
  return file;
}

beforeAll(async () => {
  server = await startFakeEmbeddings();
  root = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-index-cli-"));
  fs.mkdirSync(path.join(root, "src"), { recursive: true });
  fs.writeFileSync(path.join(root, "src", "auth.ts"), "export function verifyPassword(typed: string) { return typed.length > 0; }\n");
  fs.writeFileSync(path.join(root, "src", "db.ts"), "export function openDatabase() {}\n");
});

afterAll(async () => {
  await server.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe("toolroom index", () => {
  it("embeds every chunk once, then nothing on a second run, and says so", async () => {
    const config = writeConfig("embed.yaml", { embeddings: { type: "ref", ref: "embedder" } });
    const first = await runToolroom(["--config", config, "index", "--json"], root);
    expect(first.code, first.stderr).toBe(0);
    const result = JSON.parse(first.stdout) as Record<string, { docs?: number; embedded?: number; model?: string; error?: string }>;
    expect(result.search_code).toMatchObject({ docs: 2, embedded: 2, model: "embedder/concept-embed" });
    // No runs root here: reported, not fatal.
    expect(result.search_run_artifacts?.error).toMatch(/runs/);
    expect(server.inputs).toHaveLength(2);

    const second = await runToolroom(["--config", config, "index"], root);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain("search_code: 2 of 2 chunks embedded with embedder/concept-embed");
    expect(server.inputs).toHaveLength(2);
  });

  it("exits 1 and says to run again when the embedding server fails", async () => {
    fs.writeFileSync(path.join(root, "src", "net.ts"), "export function fetchJson() {}\n");
    server.failWith = 400;
    try {
      const config = writeConfig("embed.yaml", { embeddings: { type: "ref", ref: "embedder" } });
      const run = await runToolroom(["--config", config, "index"], root);
      expect(run.code).toBe(1);
      expect(run.stdout).toMatch(
        /search_code: 2 of 3 chunks embedded with embedder\/concept-embed; stopped: .*embedding backend unavailable.* \(run again to resume\)/,
      );
    } finally {
      server.failWith = null;
    }
  });

  it("refuses with exit 2 when no embedding model is configured", async () => {
    const config = writeConfig("plain.yaml", {});
    const run = await runToolroom(["--config", config, "index"], root);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("search.embeddings names no embedding model");
  });
});
