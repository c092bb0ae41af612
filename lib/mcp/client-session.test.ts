import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testContext } from "@/lib/testing/context";
import { invoke } from "@/lib/tools/invoke";
import type { ToolSource } from "@/lib/tools/registry";
import { sessionOf, type SourceSession } from "./client-session";
import { connectMcpSources } from "./client-source";

const FIXTURE = path.join(import.meta.dirname, "__fixtures__/mcp-sources-server.mjs");

let sources: ToolSource[];
let session: SourceSession;
let dead: SourceSession;

function toolOf(name: string) {
  const tool = sources[0]?.tools.find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool.resolve(testContext());
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
}

beforeAll(async () => {
  sources = await connectMcpSources(
    {
      fx: { command: "node", args: [FIXTURE], confirm: "never" },
      dies: { command: "node", args: ["-e", "process.stdin.once('data', () => process.exit(3))"], confirm: "never" },
    },
    { cwd: import.meta.dirname, clientVersion: "0.0.0-test", log: () => {}, sourceRequestTimeoutMs: 500 },
  );
  session = sessionOf(sources[0]!.status!)!;
  dead = sessionOf(sources[1]!.status!)!;
}, 30_000);

afterAll(async () => {
  await Promise.all(sources.map(async (s) => s.close?.()));
});

describe("a consumed server's session (the Sources view's reads)", () => {
  it("lists resources, templates and prompts, and reports the server's capabilities", async () => {
    expect(session.connected()).toBe(true);
    expect(session.capabilities()?.resources?.subscribe).toBe(true);
    expect(session.capabilities()?.completions).toBeDefined();
    expect((await session.listResources()).map((r) => r.uri)).toEqual(
      expect.arrayContaining(["fixture://notes.txt", "fixture://pixel.png", "fixture://data.bin"]),
    );
    expect((await session.listResourceTemplates()).map((t) => t.uriTemplate)).toEqual(["fixture://colours/{name}"]);
    const [greet] = await session.listPrompts();
    expect(greet?.name).toBe("greet");
    expect(greet?.arguments?.map((a) => a.name)).toEqual(["who", "colour"]);
  });

  it("reads text and binary resources, and fills a template's variable with completion", async () => {
    const text = await session.readResource("fixture://notes.txt");
    expect(text.contents[0]).toMatchObject({ mimeType: "text/plain", text: "the notes\nsecond line" });
    const image = await session.readResource("fixture://pixel.png");
    expect(image.contents[0]).toMatchObject({ mimeType: "image/png", blob: expect.stringMatching(/^iVBOR/) });
    expect(await session.complete({ ref: { type: "ref/resource", uri: "fixture://colours/{name}" }, argument: { name: "name", value: "g" } })).toEqual([
      "green",
    ]);
    expect((await session.readResource("fixture://colours/green")).contents[0]).toMatchObject({ text: "colour green" });
  });

  it("gets a prompt with its arguments, completing one", async () => {
    expect(await session.complete({ ref: { type: "ref/prompt", name: "greet" }, argument: { name: "colour", value: "b" } })).toEqual(["blue"]);
    const prompt = await session.getPrompt("greet", { who: "Ada", colour: "blue" });
    expect(prompt.messages[0]?.content).toEqual({ type: "text", text: "Say hello to Ada in blue." });
  });

  it("counts a subscribed resource's updates, and logs the server's log messages", async () => {
    await session.subscribe("fixture://counter");
    expect(session.subscriptions()).toEqual([{ uri: "fixture://counter", updates: 0 }]);
    await invoke(toolOf("bump"), {}, testContext());
    await until(() => session.subscriptions()[0]?.updates === 1);
    expect(session.subscriptions()[0]).toMatchObject({ updates: 1, lastUpdate: expect.any(Number) });
    await until(() => session.log().some((e) => e.method === "notifications/message"));
    const message = session.log().find((e) => e.method === "notifications/message");
    expect(message).toMatchObject({ direction: "in", kind: "notification" });
    expect(JSON.parse(message!.payload).params).toMatchObject({ level: "info", data: "counter is 1" });
    await session.unsubscribe("fixture://counter");
    expect(session.subscriptions()).toEqual([]);
  });

  it("keeps the JSON-RPC log newest first, each request joined with its answer and duration", async () => {
    await session.readResource("fixture://notes.txt");
    const log = session.log();
    const [newest] = log;
    expect(newest).toMatchObject({ direction: "out", kind: "request", method: "resources/read", response: { ok: true, durationMs: expect.any(Number) } });
    expect(JSON.parse(newest!.payload).params).toEqual({ uri: "fixture://notes.txt" });
    expect(log.map((e) => e.seq)).toEqual([...log.map((e) => e.seq)].sort((a, b) => b - a));
    // The handshake is the oldest traffic.
    expect(log.at(-1)).toMatchObject({ method: "initialize", response: { ok: true } });
  });

  it("answers a server that never replies with a time-bound error, and a server error in its words", async () => {
    await expect(session.readResource("fixture://stuck")).rejects.toMatchObject({
      code: "timed_out",
      message: "the server did not answer resources/read within 0.5 s",
    });
    await expect(session.readResource("fixture://nowhere")).rejects.toMatchObject({
      code: "server_error",
      message: expect.stringContaining("fixture://nowhere"),
    });
    expect(session.log().find((e) => e.method === "resources/read")?.response?.ok).toBe(false);
  });

  it("refuses requests to a server that never connected, and keeps its handshake in the log", async () => {
    expect(dead.connected()).toBe(false);
    expect(dead.failure?.message).toBe("the server exited before it answered");
    await expect(dead.listResources()).rejects.toMatchObject({ code: "not_connected", message: expect.stringContaining("exited before it answered") });
    expect(dead.log()).toEqual([expect.objectContaining({ method: "initialize", direction: "out" })]);
    // The server exited: its handshake is closed as failed, not left waiting.
    expect(dead.log()[0]?.response).toMatchObject({ ok: false, closed: "failed" });
  });
});

describe("a consumed tool's images and audio", () => {
  it("go along as content parts, and the text the model reads describes them", async () => {
    const result = await invoke(toolOf("picture"), {}, testContext());
    expect(result.text).toMatch(/^a pixel\n\[image: image\/png, \d+ B\]\n\[audio: audio\/wav, 4 B\]$/);
    expect(result.content?.map((p) => [p.type, "mimeType" in p ? p.mimeType : ""])).toEqual([
      ["image", "image/png"],
      ["audio", "audio/wav"],
    ]);
  });
});

describe("a consumed tool's progress and cancellation", () => {
  it("reports the server's progress to ctx.progress, and an abort sends notifications/cancelled", async () => {
    const controller = new AbortController();
    const seen: { progress: number; total?: number; message?: string }[] = [];
    const ctx = testContext({ signal: controller.signal, progress: (progress, total, message) => seen.push({ progress, total, message }) });
    const call = invoke(toolOf("crawl"), {}, ctx);
    await until(() => seen.length >= 2);
    controller.abort();
    const result = await call;
    expect(seen[0]).toEqual({ progress: 1, total: 1000, message: "step 1" });
    expect(result.text).toMatch(/^Error:/);
    await until(() => session.log().some((e) => e.method === "notifications/cancelled"));
    const cancelled = session.log().find((e) => e.method === "notifications/cancelled");
    const crawl = session.log().find((e) => e.method === "tools/call");
    expect(cancelled?.direction).toBe("out");
    expect(JSON.parse(cancelled!.payload).params.requestId).toBe(crawl?.id);
    expect(JSON.parse(crawl!.payload).params._meta.progressToken).toBeDefined();
  });
});
