import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadRegistry } from "@/lib/server/runtime/registry";
import { HttpError } from "@/lib/server/http/http-error";
import { settingsSchema } from "@/lib/settings/schema";
import type { Registry } from "@/lib/tools/registry-types";
import { complete, getPrompt, readResource, setSubscription } from "./source-actions";
import { listSources, sourceActivity, sourceDetail, sourceHttpError } from "./sources-view";

const FIXTURE = path.resolve(import.meta.dirname, "../../mcp/__fixtures__/mcp-sources-server.mjs");

let tmp: string;
let registry: Registry;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-sources-"));
  const settings = settingsSchema.parse({
    mcpServers: {
      fx: { command: "node", args: [FIXTURE], prefix: "fx_" },
      broken: { command: "node", args: ["-e", "console.error('no key'); process.exit(2)"] },
    },
  });
  registry = await loadRegistry({ settings, cwd: tmp, log: () => {} });
}, 30_000);

afterAll(async () => {
  await registry?.close?.();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("the Sources view's services", () => {
  it("lists each server with its state, and a failed one with its reason and stderr", () => {
    const [fx, broken] = listSources(registry);
    expect(fx).toMatchObject({
      name: "fx",
      state: "connected",
      transport: "stdio",
      server: { name: "toolroom-sources-server", version: "1.2.0" },
      needsAuth: false,
    });
    expect(broken).toMatchObject({ name: "broken", state: "failed", failure: { message: "the server exited before it answered", stderr: "no key" } });
  });

  it("details a server: capabilities, its registry tools, and each section; a failed server's sections are empty", async () => {
    const detail = await sourceDetail(registry, "fx");
    expect(detail.capabilities?.resources?.subscribe).toBe(true);
    expect(detail.tools.map((t) => t.name)).toEqual(["fx_bump", "fx_crawl", "fx_picture"]);
    expect(detail.tools[0]?.serverName).toBe("bump");
    expect(detail.resources).toMatchObject({ ok: true });
    expect(detail.templates).toMatchObject({ ok: true, items: [{ uriTemplate: "fixture://colours/{name}" }] });
    expect(detail.prompts).toMatchObject({ ok: true, items: [{ name: "greet" }] });
    const broken = await sourceDetail(registry, "broken");
    expect(broken).toMatchObject({ state: "failed", resources: { ok: true, items: [] }, prompts: { ok: true, items: [] } });
    await expect(sourceDetail(registry, "nope")).rejects.toMatchObject({ status: 404, code: "unknown_source" });
  });

  it("reads text, images and binary for the browser: text as text, binary as base64 with its size", async () => {
    expect((await readResource(registry, "fx", "fixture://notes.txt")).parts).toEqual([
      { uri: "fixture://notes.txt", mimeType: "text/plain", kind: "text", text: "the notes\nsecond line", truncated: false, length: 21 },
    ]);
    expect((await readResource(registry, "fx", "fixture://pixel.png")).parts[0]).toMatchObject({ kind: "image", mimeType: "image/png", bytes: 70 });
    expect((await readResource(registry, "fx", "fixture://data.bin")).parts[0]).toEqual({
      uri: "fixture://data.bin",
      mimeType: "application/octet-stream",
      kind: "binary",
      bytes: 4,
      data: "AAECAw==",
    });
  });

  it("answers a server's refusal as an HTTP error in its words, and a failed server as 503 with the hint", async () => {
    const failed = readResource(registry, "fx", "fixture://nowhere");
    await expect(failed).rejects.toBeInstanceOf(HttpError);
    await expect(failed).rejects.toMatchObject({ status: 502, code: "source_server_error" });
    await expect(readResource(registry, "broken", "x://y")).rejects.toMatchObject({
      status: 503,
      code: "source_not_connected",
      message: expect.stringContaining("Its stderr says why"),
    });
  });

  it("answers a refusal from another copy of the client module (Next bundles each route apart) as the same HTTP error", async () => {
    // The registry, and the sessions it made, live on globalThis: their errors come from the copy of
    // client-session.ts in whichever route loaded the registry first, not from this route's copy.
    vi.resetModules();
    const other = await import("@/lib/mcp/client-session");
    const refusal = new other.SourceRequestError("the server has stopped", "not_connected", "Restart Toolroom.");
    expect(sourceHttpError(refusal)).toMatchObject({ status: 503, code: "source_not_connected", message: "the server has stopped. Restart Toolroom." });
    expect(sourceHttpError(new Error("x"))).not.toBeInstanceOf(HttpError);
  });

  it("gets a prompt as composer text, completes arguments, and subscribes", async () => {
    expect(await getPrompt(registry, "fx", "greet", { who: "Ada", colour: "red" })).toEqual({ text: "Say hello to Ada in red." });
    expect(await complete(registry, "fx", { type: "ref/prompt", name: "greet" }, { name: "colour", value: "r" }, {})).toEqual({ values: ["red"] });
    await setSubscription(registry, "fx", "fixture://counter", true);
    expect(sourceActivity(registry, "fx").subscriptions).toEqual([{ uri: "fixture://counter", updates: 0 }]);
    expect(sourceActivity(registry, "fx").log[0]).toMatchObject({ method: "resources/subscribe", response: { ok: true } });
  });
});
