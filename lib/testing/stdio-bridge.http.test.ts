import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The bridge e2e/mcp-stdio-conformance.spec.ts drives the conformance suite through. The suite's SDK
// client keeps a GET stream open, where a message the bridge could not place would still reach it;
// a client that only POSTs must get a call's progress, log lines and questions on that call's own
// stream, or it never sees the question and the call never ends.

let root: string;
let bridge: ChildProcessWithoutNullStreams;
let url: string;
let bridgeLog = "";

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-stdio-bridge-"));
  const config = path.join(root, "toolroom.yaml");
  fs.writeFileSync(
    config,
    `sourceRoot: ${JSON.stringify(root)}\nplugins: { paths: [${JSON.stringify(path.resolve("examples/plugins/mcp-conformance-fixtures"))}] }\n`,
  );
  bridge = spawn(process.execPath, ["--import", "tsx", "lib/testing/stdio-bridge.ts", config, root]);
  bridge.stderr.on("data", (chunk: Buffer) => (bridgeLog += chunk.toString()));
  url = await new Promise<string>((resolve, reject) => {
    let out = "";
    bridge.once("exit", (code) => reject(new Error(`the bridge exited (${code}):\n${bridgeLog}`)));
    bridge.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("\n")) resolve((JSON.parse(out.split("\n")[0]!) as { url: string }).url);
    });
  });
});

afterAll(async () => {
  if (bridge?.exitCode === null) {
    const exited = new Promise((resolve) => bridge.once("exit", resolve));
    bridge.kill("SIGTERM");
    await exited;
  }
  fs.rmSync(root, { recursive: true, force: true });
});

type Message = { id?: number | string; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown> };

/** The JSON-RPC messages of an SSE answer, as they arrive (the priming event, with no data, skipped). */
async function* messagesOf(response: Response): AsyncGenerator<Message> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const data = buffer
        .slice(0, end)
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).trim())
        .join("\n");
      buffer = buffer.slice(end + 2);
      if (data) yield JSON.parse(data) as Message;
    }
  }
}

/** A POST whose answer, stream included, ends within 15 s: a message the bridge lost fails the test as a timeout, not a hang. */
function post(body: unknown, session?: string): Promise<Response> {
  return fetch(url, {
    method: "POST",
    signal: AbortSignal.timeout(15_000),
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(session ? { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" } : {}),
    },
    body: JSON.stringify(body),
  });
}

/** A session whose client only POSTs: no GET stream is ever opened. */
async function openSession(capabilities: Record<string, unknown>): Promise<string> {
  const init = await post({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities, clientInfo: { name: "post-only", version: "0.0.1" } },
  });
  const session = init.headers.get("mcp-session-id")!;
  for await (const message of messagesOf(init)) if (message.id === 1) break;
  expect((await post({ jsonrpc: "2.0", method: "notifications/initialized" }, session)).status).toBe(202);
  return session;
}

const toolroomChildren = () =>
  spawnSync("ps", ["-o", "args=", "--ppid", String(bridge.pid)], { encoding: "utf8" })
    .stdout.split("\n")
    .filter((args) => args.includes(path.join("bin", "toolroom.mjs")));

describe("lib/testing/stdio-bridge.ts", () => {
  it("puts a call's progress and log lines on the call's own stream, before its result", async () => {
    const session = await openSession({});
    const seen: string[] = [];
    const progress = await post(
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "test_tool_with_progress", arguments: {}, _meta: { progressToken: "p" } } },
      session,
    );
    for await (const message of messagesOf(progress)) {
      seen.push(message.method ?? `result ${message.id}`);
      if (message.id === 2) break;
    }
    const logging = await post({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "test_tool_with_logging", arguments: {} } }, session);
    for await (const message of messagesOf(logging)) {
      seen.push(message.method ?? `result ${message.id}`);
      if (message.id === 3) break;
    }
    expect(seen, bridgeLog).toEqual([...Array(3).fill("notifications/progress"), "result 2", ...Array(3).fill("notifications/message"), "result 3"]);
  });

  it("asks a tool's question on the call's stream and takes the answer POSTed back; DELETE ends the session's toolroom mcp", async () => {
    const before = toolroomChildren().length;
    const session = await openSession({ elicitation: { form: {} } });
    expect(toolroomChildren()).toHaveLength(before + 1);
    const call = await post({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "test_elicitation", arguments: { message: "Who?" } } }, session);
    let result: Message | undefined;
    for await (const message of messagesOf(call)) {
      if (message.method === "elicitation/create") {
        const answer = { jsonrpc: "2.0", id: message.id, result: { action: "accept", content: { username: "ada", email: "ada@example.com" } } };
        expect((await post(answer, session)).status).toBe(202);
      }
      if (message.id === 2) {
        result = message;
        break;
      }
    }
    expect(JSON.stringify(result?.result), bridgeLog).toContain("action=accept");
    expect((await fetch(url, { method: "DELETE", headers: { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" } })).status).toBe(200);
    await expect.poll(() => toolroomChildren().length).toBe(before);
  });
});
