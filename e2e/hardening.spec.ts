// Untrusted input and every turn's end, against the built server with a settings file of its own
// and a loopback provider speaking OpenAI's wire protocol (issues #28.3, #28.5, #28.7, #29.4):
// - a suite regex RE2 cannot run is refused at load with file, case and key; a catastrophic one
//   that RE2 can run is matched in linear time while the server keeps answering;
// - a provider's error and the raw request never carry a key or a URL's credentials, neither in
//   GET /api/chats/:id/trace nor in the stored TraceStep row;
// - an MCP session opened before a deny was written to the settings file is denied its next call;
// - Stop, a provider error, kill -9 mid-answer (closed at the next start) and the idle limit each
//   leave a trace step saying so.
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { expect, test } from "@playwright/test";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { startFakeOpenAI, textDeltas, type FakeOpenAIServer } from "../lib/testing/openai-server";
import { McpHttpClient } from "./pages/mcp-client";
import { NextServer, ownState, type OwnState } from "./pages/next-server";
import { freePort, rawRequest } from "./pages/security-http";

test.describe.configure({ mode: "serial", timeout: 120_000 });

// 40 "a"s then "b": (a+)+$ takes a backtracking engine 2^40 steps on it; RE2, one pass.
const RUN = `${"a".repeat(40)}b`;
const ECHOED_KEY = "sk-e2e-echoedKEY0123456789abcdef";
const URL_PASSWORD = "pw-SECRET-7777";
const QUERY_KEY = "querySECRET4242";
const SECRETS = [ECHOED_KEY, URL_PASSWORD, QUERY_KEY];

let provider: FakeOpenAIServer;
let state: OwnState;
let server: NextServer;
let sourceRoot: string;
let runsRoot: string;
let settings: Record<string, unknown>;

function writeSettings(change: (s: Record<string, unknown>) => void) {
  change(settings);
  fs.writeFileSync(state.config, JSON.stringify(settings, null, 2));
}

test.beforeAll(async () => {
  provider = await startFakeOpenAI();
  const host = new URL(provider.baseURL).host;
  state = ownState("hardening", (dir) => {
    sourceRoot = path.join(dir, "src");
    runsRoot = path.join(dir, "runs");
    fs.mkdirSync(path.join(sourceRoot, "private"), { recursive: true });
    fs.writeFileSync(path.join(sourceRoot, "private/p.txt"), "the private text\n");
    fs.writeFileSync(path.join(sourceRoot, `${RUN}.txt`), `${RUN}\n`);
    fs.writeFileSync(
      path.join(sourceRoot, "refused.eval.yaml"),
      [
        "name: refused",
        "cases:",
        "  - { name: lookahead, prompt: hi, expect: { answer: { regex: '^(?=(a+)+$)' } } }",
        "  - { name: backref, prompt: hi, expect: { calls: [{ tool: read_file, args: { path: { regex: '(a+)+\\1' } } }] } }",
        "",
      ].join("\n"),
    );
    // One trial at a time, each answering slowly: the eval is still running after its first match.
    const call = JSON.stringify(`read_file {"path": "${RUN}.txt"} slowly`);
    fs.writeFileSync(
      path.join(sourceRoot, "catastrophic.eval.yaml"),
      `name: catastrophic\nmatrix: { trials: 3 }\ncases:\n  - { name: run, prompt: ${call}, expect: { calls: [{ tool: read_file, args: { path: { regex: '^(a+)+$' } } }], answer: { regex: '(a+)+$' } } }\n`,
    );
    settings = {
      sourceRoot,
      runsRoot,
      evals: { concurrency: 1 },
      chat: { streamIdleTimeoutSeconds: 60 },
      llms: {
        offline: { provider: "offline" },
        // The provider echoes the key it was given in its 401.
        byEcho: { provider: "openai-compatible", baseURL: provider.baseURL, model: "m", apiKey: ECHOED_KEY },
        // fetch refuses a URL with credentials, and its error names the URL.
        byUser: { provider: "openai-compatible", baseURL: `http://alice:${URL_PASSWORD}@${host}/v1`, model: "m" },
        // The provider answers 404 naming the path it was sent, query and all.
        byQuery: { provider: "openai-compatible", baseURL: `${provider.baseURL}?api-key=${QUERY_KEY}`, model: "m" },
        loopback: { provider: "openai-compatible", baseURL: provider.baseURL, model: "m" },
      },
    };
    return JSON.stringify(settings, null, 2);
  });
  server = new NextServer(await freePort(), state.env);
  await server.ready();
});

test.afterAll(async () => {
  // A frozen server ignores SIGTERM (the defect #28.3 describes): kill() ends it with SIGKILL after a grace period.
  await server?.kill("SIGTERM");
  await provider?.close();
  state?.remove();
});

function post(url: string, body: unknown) {
  return rawRequest(`${server.origin}${url}`, {
    method: "POST",
    headers: { Origin: server.origin, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
}

function chatBody(chatId: string, model: string, text = "hello") {
  return { id: chatId, model, toolMode: "native", message: { id: `${chatId}-u`, role: "user", parts: [{ type: "text", text }] } };
}

/** A chat request whose answer is read as it streams. */
function streamChat(body: unknown): { seen: (text: string) => Promise<void>; ended: Promise<string> } {
  let received = "";
  const waiters: { text: string; resolve: () => void }[] = [];
  const ended = new Promise<string>((resolve, reject) => {
    const payload = JSON.stringify(body);
    const req = http.request(
      `${server.origin}/api/chat`,
      { method: "POST", headers: { Origin: server.origin, "Content-Type": "application/json", "Content-Length": Buffer.byteLength(payload) } },
      (res) => {
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          received += chunk;
          for (const w of waiters.filter((w) => received.includes(w.text))) w.resolve();
        });
        res.on("end", () => resolve(received));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
  const seen = (text: string) =>
    received.includes(text)
      ? Promise.resolve()
      : Promise.race([
          new Promise<void>((resolve) => waiters.push({ text, resolve })),
          ended.then((all) => {
            if (!all.includes(text)) throw new Error(`the answer ended without "${text}": ${all.slice(-500)}`);
          }),
        ]);
  // A killed server ends the request with an error: that is the point of the crash test.
  ended.catch(() => undefined);
  return { seen, ended };
}

interface TraceStep {
  outcome?: string;
  error?: string;
  durationMs?: number;
  raw: { request: { url?: string }; response: { text: string } };
}

async function traceSteps(chatId: string): Promise<{ steps: TraceStep[]; body: string }> {
  const res = await rawRequest(`${server.origin}/api/chats/${chatId}/trace`);
  expect(res.status, res.body.slice(0, 300)).toBe(200);
  const trace = JSON.parse(res.body) as { turns: { steps: TraceStep[] }[] };
  return { steps: trace.turns.flatMap((t) => t.steps), body: res.body };
}

/** The chat's TraceStep rows as SQLite holds them. */
function storedSteps(chatId: string): { outcome: string | null; error: string | null; raw: string; toolCalls: string }[] {
  const db = new Database(path.join(state.dir, "toolroom.db"), { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT outcome, error, raw, toolCalls FROM "TraceStep" WHERE chatId = ?').all(chatId) as never;
  } finally {
    db.close();
  }
}

async function until<T>(probe: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

interface EvalRun {
  id: string;
  state: string;
  done: number;
  failed: number;
  runRel: string | null;
}

async function evalRun(id: string): Promise<EvalRun | undefined> {
  const res = await rawRequest(`${server.origin}/api/evals`);
  expect(res.status, res.body.slice(0, 300)).toBe(200);
  return (JSON.parse(res.body) as { runs: EvalRun[] }).runs.find((r) => r.id === id);
}

test("suite regexes: what RE2 cannot run is refused at load with file, case and key; a catastrophic one is matched while the server answers (#28.3)", async () => {
  const refused = await post("/api/evals", { suite: "source:refused.eval.yaml" });
  expect(refused.status, refused.body).toBe(400);
  const error = (JSON.parse(refused.body) as { error: string }).error;
  expect(error).toContain('refused.eval.yaml: case 1 "lookahead", key expect.answer.regex:');
  expect(error).toContain('refused.eval.yaml: case 2 "backref", key expect.calls[0].args.path.regex:');
  expect(error).toContain("suite regexes run on RE2");

  const started = await post("/api/evals", { suite: "source:catastrophic.eval.yaml" });
  expect(started.status, started.body).toBe(202);
  const { id } = (JSON.parse(started.body) as { run: EvalRun }).run;
  // The first trial's regexes have run on its call and its answer...
  await until(async () => ((await evalRun(id))?.done ?? 0) >= 1 || undefined, "the first trial to be matched");
  // ...and the server still answers, while the eval goes on (backtracking would hold the event loop for hours).
  const probe = await rawRequest(`${server.origin}/api/tools`);
  expect(probe.status).toBe(200);
  expect((await evalRun(id))?.state).toBe("running");
  const done = await until(async () => {
    const run = await evalRun(id);
    return run && run.state !== "running" ? run : undefined;
  }, "the eval to end");
  expect(done).toMatchObject({ state: "done", done: 3, failed: 3 });
  const cases = fs.readFileSync(path.join(runsRoot, done.runRel!, "cases.json"), "utf8");
  expect(cases).toContain("does not match /^(a+)+$/");
  expect(cases).toContain("answer does not match /(a+)+$/");
});

test("a key the provider echoes and a baseURL's password and api-key are masked in GET …/trace and in the stored row (#28.5, #29.4 provider error)", async () => {
  provider.reply({ status: 401, error: `Incorrect API key provided: ${ECHOED_KEY}. You can find your API key at https://example.test/keys.` });
  const urls: Record<string, string | undefined> = {};
  for (const model of ["byEcho", "byUser", "byQuery"]) {
    const chatId = `secret-${model}-${Date.now()}`;
    const res = await post("/api/chat", chatBody(chatId, model));
    expect(res.status, res.body.slice(0, 300)).toBe(200);
    const { steps, body } = await traceSteps(chatId);
    expect(steps, body).toHaveLength(1);
    expect(steps[0]).toMatchObject({ outcome: "provider-error", error: expect.any(String) });
    for (const secret of SECRETS) expect(body, `${model}: GET trace`).not.toContain(secret);
    const rows = storedSteps(chatId);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.outcome).toBe("provider-error");
    for (const secret of SECRETS) expect(JSON.stringify(rows), `${model}: the stored row`).not.toContain(secret);
    const exported = await rawRequest(`${server.origin}/api/chats/${chatId}/export`);
    for (const secret of SECRETS) expect(exported.body, `${model}: the export`).not.toContain(secret);
    if (model === "byEcho") expect(steps[0]!.error).toContain("Incorrect API key provided");
    urls[model] = steps[0]!.raw.request.url;
  }
  // The raw request still says where it went, with the key masked.
  expect(urls.byQuery).toMatch(/api-key=/);
});

test("an MCP session opened before a deny was written to the settings file is denied its next call (#28.7)", async () => {
  const mcp = await McpHttpClient.connect(server.origin, "e2e-reload-deny");
  try {
    const read = () => mcp.client.callTool({ name: "read_file", arguments: { path: "private/p.txt" } }) as Promise<CallToolResult>;
    const text = (r: CallToolResult) => r.content.map((c) => (c.type === "text" ? c.text : "")).join("");
    expect(text(await read())).toContain("the private text");

    writeSettings((s) => (s.approvals = { rules: [{ tool: "read_file", args: { path: "^private/" }, decision: "deny", reason: "e2e private stays closed" }] }));
    // The live reload has applied the file once the rules list shows the new rule.
    await until(async () => {
      const res = await rawRequest(`${server.origin}/api/approval-rules`);
      return res.body.includes("e2e private stays closed") || undefined;
    }, "the reload to show the deny rule");

    const after = await read();
    expect(text(after)).not.toContain("the private text");
    expect(after._meta?.["toolroom/decision"]).toMatchObject({ by: "rule", decision: "denied" });
  } finally {
    await mcp.close();
  }
});

test("Stop, kill -9 mid-answer (closed at the next start) and the idle limit each leave a trace step with its outcome (#29.4)", async () => {
  test.setTimeout(240_000);
  // Stop: the person ends the turn while the provider still streams.
  provider.reply({ deltas: textDeltas("Started answering", [7]), then: "stall" });
  const stopId = `outcome-stop-${Date.now()}`;
  const stopped = streamChat(chatBody(stopId, "loopback"));
  await stopped.seen("Started");
  expect(JSON.parse((await post(`/api/chats/${stopId}/stop`, {})).body)).toEqual({ stopped: true });
  await stopped.ended;
  const [stopStep] = (await traceSteps(stopId)).steps;
  expect(stopStep).toMatchObject({ outcome: "stopped", error: "stopped by the person", durationMs: expect.any(Number) });

  // kill -9 while the answer streams, once its periodic save has stored the open step.
  provider.reply({ deltas: textDeltas("Long answer under way", [4]), then: "stall" });
  const crashId = `outcome-crash-${Date.now()}`;
  const crashing = streamChat(chatBody(crashId, "loopback"));
  await crashing.seen("under");
  const open = await until(() => storedSteps(crashId)[0], "the open step to be stored");
  expect(open.outcome).toBeNull();
  await server.kill("SIGKILL");
  await crashing.ended.catch(() => undefined);

  // The next start closes it; and, with a short idle limit, a silent provider times the step out.
  writeSettings((s) => (s.chat = { streamIdleTimeoutSeconds: 1 }));
  server = new NextServer(await freePort(), state.env);
  await server.ready();
  const [crashStep] = (await traceSteps(crashId)).steps;
  expect(crashStep).toMatchObject({ outcome: "interrupted", error: expect.stringContaining("the server stopped during this step") });
  expect(crashStep!.raw.response.text).toContain("Long answer");

  provider.reply({ deltas: textDeltas("Thinking", [3]), then: "stall" });
  const idleId = `outcome-idle-${Date.now()}`;
  expect((await post("/api/chat", chatBody(idleId, "loopback"))).status).toBe(200);
  const [idleStep] = (await traceSteps(idleId)).steps;
  expect(idleStep).toMatchObject({ outcome: "timed-out", durationMs: expect.any(Number), error: expect.stringContaining("chat.streamIdleTimeoutSeconds") });
});
