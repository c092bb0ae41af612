// A server killed with SIGKILL while an approved tool runs (issue 15, items 1 and 9): the command
// dies with it, and after a restart the chat works again, the call showing why it has no result.
// This spec starts its own servers from the suite's build, on their own database.
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { NextServer, descendants, isRunning, ownState, type OwnState } from "./pages/next-server";
import { freePort, rawRequest } from "./pages/security-http";

test.describe.configure({ timeout: 240_000 });

const INTERRUPTED = "Error: interrupted: the server stopped while this call ran.";
// A duration no other process of the machine is likely to sleep, to find this one.
const SLEEP = "sleep 47.25";

let state: OwnState;

test.beforeAll(() => {
  state = ownState("crash", (dir) => {
    const sourceRoot = path.join(dir, "src");
    fs.mkdirSync(sourceRoot);
    fs.writeFileSync(path.join(sourceRoot, "README.md"), "# crash test\n");
    return JSON.stringify({ sourceRoot, tools: { run_terminal_command: { enabled: true, allowedCommands: ["sleep", "ls"], timeoutSeconds: 120 } } });
  });
});

test.afterAll(() => state?.remove());

interface Chunk {
  type: string;
  [key: string]: unknown;
}

/** The UI message stream chunks of an SSE body. */
function chunksOf(body: string): Chunk[] {
  return body.split("\n").flatMap((line) => (line.startsWith("data: {") ? [JSON.parse(line.slice("data: ".length)) as Chunk] : []));
}

function postJson(server: NextServer, url: string, body: unknown) {
  return rawRequest(`${server.origin}${url}`, {
    method: "POST",
    headers: { Origin: server.origin, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
}

interface StoredPart {
  type: string;
  toolCallId?: string;
  state?: string;
  errorText?: string;
  approval?: { id: string; approved?: boolean };
}
interface Exported {
  messages: { id: string; role: string; parts: StoredPart[]; metadata?: { error?: string } }[];
  toolCalls: { id: string; state: string; isError: boolean; output: string | null }[];
}

async function exported(server: NextServer, chatId: string): Promise<Exported> {
  const res = await rawRequest(`${server.origin}/api/chats/${chatId}/export`);
  expect(res.status, res.body.slice(0, 300)).toBe(200);
  return JSON.parse(res.body) as Exported;
}

async function poll<T>(probe: () => T | undefined, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test("kill -9 while an approved command runs: the command dies, and after a restart the chat goes on", async () => {
  const chatId = `crash-${Date.now()}`;
  let server = new NextServer(await freePort(), state.env);
  try {
    await server.ready();

    // Try-it: an approval asked for before the crash (item 9).
    const asked = await postJson(server, "/api/tools/run_terminal_command/invoke", { input: { command: "ls" } });
    const tryIt = JSON.parse(asked.body) as { status: string; approvalId: string };
    expect(tryIt.status, asked.body).toBe("approval-required");

    // The model asks to run the command; the person approves it.
    const first = await postJson(server, "/api/chat", {
      id: chatId,
      message: { id: `${chatId}-u1`, role: "user", parts: [{ type: "text", text: `run \`${SLEEP}\`` }] },
    });
    expect(first.status, first.body.slice(0, 300)).toBe(200);
    expect(chunksOf(first.body).some((c) => c.type === "tool-approval-request")).toBe(true);
    const assistant = (await exported(server, chatId)).messages.at(-1)!;
    const call = assistant.parts.find((p) => p.state === "approval-requested")!;
    const approved = {
      ...assistant,
      parts: assistant.parts.map((p) => (p === call ? { ...p, state: "approval-responded", approval: { ...p.approval, approved: true } } : p)),
    };
    // Its answer streams until the command ends, which it never does here: the server dies first.
    void postJson(server, "/api/chat", { id: chatId, message: approved }).catch(() => undefined);

    const serverPid = server.pid;
    const sleep = await poll(() => descendants(serverPid).find((p) => p.argv.join(" ") === SLEEP), `${SLEEP} to start under the server`);
    await server.kill("SIGKILL");

    // The command's whole group went with the server.
    await poll(() => (isRunning(sleep.pid) ? undefined : true), `${SLEEP} (pid ${sleep.pid}) to die with the server`, 15_000);

    server = new NextServer(await freePort(), state.env);
    await server.ready();

    // The call has its error result, in the message and in the tool call row.
    const after = await exported(server, chatId);
    const closed = after.messages.flatMap((m) => m.parts).find((p) => p.toolCallId === call.toolCallId);
    expect(closed).toMatchObject({ state: "output-error", errorText: INTERRUPTED });
    expect(after.toolCalls.find((c) => c.id === call.toolCallId)).toMatchObject({ state: "error", isError: true, output: INTERRUPTED });

    // And the chat goes on: the next turn reaches the model and asks for its command.
    const next = await postJson(server, "/api/chat", {
      id: chatId,
      message: { id: `${chatId}-u2`, role: "user", parts: [{ type: "text", text: "run `ls`" }] },
    });
    expect(next.status, next.body.slice(0, 300)).toBe(200);
    const chunks = chunksOf(next.body);
    expect(chunks.filter((c) => c.type === "error")).toEqual([]);
    expect(chunks.some((c) => c.type === "tool-approval-request")).toBe(true);
    expect(JSON.stringify((await exported(server, chatId)).messages)).not.toContain("Tool result is missing");

    // The try-it approval outlived the restart.
    const ran = await postJson(server, "/api/tools/run_terminal_command/invoke", {
      input: { command: "ls" },
      approvalId: tryIt.approvalId,
      decision: "approve",
    });
    expect(JSON.parse(ran.body)).toMatchObject({ status: "done", text: "Exit code: 0\nREADME.md" });
  } finally {
    await server.kill("SIGTERM");
  }
});
