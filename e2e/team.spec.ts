// A team's Toolroom (issue Z, points 2 and 3): two instances started with `npm start` at the same
// moment on one fresh PostgreSQL database behave as one Toolroom, and when one is killed -9 the
// other closes its running call as interrupted, without waiting for it to come back.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { descendants } from "./pages/next-server";
import { freePort, rawRequest } from "./pages/security-http";

test.describe.configure({ timeout: 240_000 });

const SERVER = process.env.TOOLROOM_TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const INTERRUPTED = "Error: interrupted: the server stopped while this call ran.";
// A duration no other process of the machine is likely to sleep.
const SLEEP = "sleep 53.75";

/** The team's admin token, made with `toolroom tokens create` once the store exists; every request carries it. */
let token = "";
const signedIn = (): Record<string, string> => (token ? { Authorization: `Bearer ${token}` } : {});

/** One `npm start`, in a process group of its own so that kill -9 takes all of it, tools included. */
class Instance {
  output = "";
  readonly child: ChildProcess;
  constructor(
    readonly port: number,
    env: Record<string, string>,
  ) {
    const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env, PORT: String(port) };
    for (const name of Object.keys(childEnv)) if (name.startsWith("TOOLROOM_") && !(name in env)) delete childEnv[name];
    this.child = spawn("npm", ["start"], { env: childEnv, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    this.child.stdout?.on("data", (chunk: Buffer) => (this.output += chunk.toString()));
    this.child.stderr?.on("data", (chunk: Buffer) => (this.output += chunk.toString()));
  }
  get origin() {
    return `http://127.0.0.1:${this.port}`;
  }
  async ready(): Promise<void> {
    const deadline = Date.now() + 120_000;
    while (
      // A team's store needs sign-in: an instance that answers 401 is up.
      (await this.get("/api/tools").then(
        (r) => r.status,
        () => 0,
      )) !== 401
    ) {
      if (this.child.exitCode !== null) throw new Error(`npm start exited (${this.child.exitCode}):\n${this.output}`);
      if (Date.now() > deadline) throw new Error(`npm start did not answer:\n${this.output}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    // The suite's build is served as it is: a start that rebuilt would be measuring something else.
    expect(this.output).not.toContain("toolroom: building");
  }
  get(url: string) {
    return this.named(url, rawRequest(`${this.origin}${url}`, { headers: signedIn() }));
  }
  post(url: string, body: unknown) {
    return this.named(
      `POST ${url}`,
      rawRequest(`${this.origin}${url}`, {
        method: "POST",
        headers: { Origin: this.origin, "Content-Type": "application/json", ...signedIn() },
        body: JSON.stringify(body),
      }),
    );
  }
  /** A failed request says which one, and what the instance printed. */
  private named<T>(what: string, request: Promise<T>): Promise<T> {
    return request.catch((error: Error) => {
      throw new Error(`${what} on ${this.origin}: ${error.message}\n${this.output.slice(-3000)}`);
    });
  }
  /** The whole tree: npm, the Node 22 bootstrap, start.mjs, the server and the tools it runs. */
  kill(signal: NodeJS.Signals) {
    if (!this.child.pid) return;
    for (const pid of [this.child.pid, ...descendants(this.child.pid).map((p) => p.pid)]) {
      try {
        process.kill(pid, signal);
      } catch {
        // gone already
      }
    }
  }
}

interface Part {
  type: string;
  toolCallId?: string;
  state?: string;
  errorText?: string;
  approval?: { id: string; approved?: boolean };
}
type Message = { id: string; role: string; parts: Part[] };

async function exported(instance: Instance, chatId: string) {
  const res = await instance.get(`/api/chats/${chatId}/export`);
  expect(res.status, res.body.slice(0, 300)).toBe(200);
  return JSON.parse(res.body) as {
    messages: Message[];
    toolCalls: { id: string; state: string; output: string | null; decidedBy: string | null; decidedByUser: string | null }[];
  };
}

/** Asks `instance`'s offline model to run `command`; returns the assistant message with the call waiting for approval. */
async function askToRun(instance: Instance, chatId: string, command: string): Promise<{ message: Message; call: Part }> {
  const res = await instance.post("/api/chat", {
    id: chatId,
    message: { id: `${chatId}-u1`, role: "user", parts: [{ type: "text", text: `run \`${command}\`` }] },
  });
  expect(res.status, res.body.slice(0, 300)).toBe(200);
  const message = (await exported(instance, chatId)).messages.at(-1)!;
  const call = message.parts.find((p) => p.state === "approval-requested");
  expect(call, JSON.stringify(message.parts)).toBeTruthy();
  return { message, call: call! };
}

const approved = (message: Message, call: Part) => ({
  ...message,
  parts: message.parts.map((p) => (p === call ? { ...p, state: "approval-responded", approval: { ...p.approval, approved: true } } : p)),
});

async function until<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

let dir: string;
let database: string;
let a: Instance;
let b: Instance;

test.beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-team-"));
  const sourceRoot = path.join(dir, "src");
  fs.mkdirSync(sourceRoot);
  const config = path.join(dir, "toolroom.yaml");
  fs.writeFileSync(
    config,
    JSON.stringify({ sourceRoot, tools: { run_terminal_command: { enabled: true, allowedCommands: ["sleep", "ls", "touch"], timeoutSeconds: 120 } } }),
  );
  database = `toolroom_team_${process.pid}_${Date.now()}`;
  const url = new URL(SERVER);
  url.pathname = `/${database}`;
  const env = { DATABASE_URL: url.toString(), TOOLROOM_CONFIG: config, XDG_CONFIG_HOME: path.join(dir, "xdg"), XDG_STATE_HOME: path.join(dir, "xdg-state") };
  // Both at the same moment, on a database that does not exist yet: creating it and migrating it race.
  a = new Instance(await freePort(), env);
  b = new Instance(await freePort(), env);
  await Promise.all([a.ready(), b.ready()]);
  // As a team would: the first admin from the CLI on the server's machine, and a token for the API.
  const cli = (args: string[], input?: string) =>
    execFileSync(process.execPath, ["bin/toolroom.mjs", ...args], { env: { ...process.env, ...env }, input, encoding: "utf8" }).trim();
  cli(["users", "add", "admin@team.example", "--role", "admin", "--password-stdin"], "team admin password");
  token = cli(["tokens", "create", "admin@team.example", "--name", "e2e"]);
  expect((await a.get("/api/tools")).status).toBe(200);
});

test.afterAll(async () => {
  a?.kill("SIGKILL");
  b?.kill("SIGKILL");
  const admin = new pg.Client({ connectionString: SERVER });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  await admin.end();
  fs.rmSync(dir, { recursive: true, force: true });
});

test("two instances on one database: one history, approvals answered anywhere and once, rules at once, evals seen everywhere", async ({ browser }) => {
  // The migrations were applied once, though both instances started together.
  const client = new pg.Client({ connectionString: new URL(`/${database}`, SERVER).toString() });
  await client.connect();
  const applied = (await client.query("SELECT migration_name, count(*)::int AS n FROM _prisma_migrations GROUP BY migration_name")).rows as { n: number }[];
  await client.end();
  expect(applied.length).toBe(fs.readdirSync("prisma/postgresql/migrations").filter((n) => /^\d{14}_/.test(n)).length);
  expect(applied.every((row) => row.n === 1)).toBe(true);

  // A chat made on A is listed on B, with its call waiting for approval.
  const chatId = `team-${Date.now()}`;
  const { message, call } = await askToRun(a, chatId, "touch approved-on-b");
  const listed = JSON.parse((await b.get("/api/chats")).body) as { chats?: { id: string }[] } | { id: string }[];
  expect(JSON.stringify(listed)).toContain(chatId);

  // The approval A issued, answered three times at once on both instances: the tool runs once.
  const answer = { id: chatId, message: approved(message, call) };
  const answers = await Promise.all([b.post("/api/chat", answer), b.post("/api/chat", answer), a.post("/api/chat", answer)]);
  expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409]);
  const afterApproval = await exported(a, chatId);
  expect(afterApproval.toolCalls.filter((c) => c.id === call.toolCallId)).toMatchObject([
    { state: "done", decidedBy: "user", decidedByUser: "admin@team.example" },
  ]);
  expect(fs.existsSync(path.join(dir, "src", "approved-on-b"))).toBe(true);

  // A try-it approval asked for on A is answered on B.
  const asked = JSON.parse((await a.post("/api/tools/run_terminal_command/invoke", { input: { command: "ls" } })).body) as {
    status: string;
    approvalId: string;
  };
  expect(asked.status).toBe("approval-required");
  const ran = await b.post("/api/tools/run_terminal_command/invoke", { input: { command: "ls" }, approvalId: asked.approvalId, decision: "approve" });
  expect(JSON.parse(ran.body)).toMatchObject({ status: "done" });
  // …once: the same approval spent again on A is refused.
  const again = await a.post("/api/tools/run_terminal_command/invoke", { input: { command: "ls" }, approvalId: asked.approvalId, decision: "approve" });
  expect(again.status).toBe(409);

  // A rule saved on A decides B's very next call.
  const rule = await a.post("/api/approval-rules", { tool: "run_terminal_command", decision: "deny", reason: "the team said no" });
  expect(rule.status, rule.body).toBe(201);
  const denied = JSON.parse((await b.post("/api/tools/run_terminal_command/invoke", { input: { command: "ls" } })).body) as { status: string; text?: string };
  expect(denied).toMatchObject({ status: "not-admitted" });
  expect(denied.text).toContain("the team said no");
  const ruleId = (JSON.parse(rule.body) as { rule: { id: string } }).rule.id;
  expect(
    (await rawRequest(`${a.origin}/api/approval-rules/${ruleId}`, { method: "DELETE", headers: { Origin: a.origin, ...signedIn() } })).status,
  ).toBeLessThan(300);

  // An eval started on A is seen on B as A's (not taken for a dead process's run and interrupted).
  const suites = (JSON.parse((await a.get("/api/evals")).body) as { suites: { key: string }[] }).suites;
  const suite = suites.find((s) => s.key.startsWith("examples:"))!.key;
  const started = await a.post("/api/evals", { suite, models: ["offline"], modes: ["native"], trials: 1 });
  expect(started.status, started.body).toBe(202);
  const runId = (JSON.parse(started.body) as { run: { id: string } }).run.id;
  let last: unknown;
  const seen = await until(
    async () => {
      const runs = (JSON.parse((await b.get("/api/evals")).body) as { runs: { id: string; state: string; done: number; total: number }[] }).runs;
      const run = runs.find((r) => r.id === runId);
      last = run ?? runs.map((r) => r.id);
      return run && run.state !== "running" ? run : undefined;
    },
    "the eval to end, as seen on B",
    90_000,
  ).catch((error: Error) => {
    throw new Error(`${error.message}; last seen: ${JSON.stringify(last)}; A's own view: ${a.output.slice(-2000)}`);
  });
  expect(seen).toMatchObject({ state: "done" });
  expect(seen.done).toBe(seen.total);

  // B's Evals page, as a person sees it: the team's evals, the trial slots, A's finished run.
  for (const colorScheme of ["light", "dark"] as const) {
    const context = await browser.newContext({ colorScheme, extraHTTPHeaders: signedIn() });
    const page = await context.newPage();
    await page.goto(`${b.origin}/evals`);
    await expect(page.getByRole("heading", { name: "Evals of this team" })).toBeVisible();
    await expect(page.getByTestId("eval-workers")).toContainText("slots in the web instances");
    await expect(page.locator('[data-testid="eval-run"][data-state="done"]').first()).toBeVisible();
    await page.screenshot({ path: test.info().outputPath(`team-evals-${colorScheme}.png`), fullPage: true });
    await context.close();
  }
});

test("an instance killed -9 mid-call: the live one closes its call as interrupted, without waiting for it to come back", async () => {
  const chatId = `team-kill-${Date.now()}`;
  const { message, call } = await askToRun(a, chatId, SLEEP);
  // Its answer streams until the command ends, which it never does here: the instance dies first.
  void a.post("/api/chat", { id: chatId, message: approved(message, call) }).catch(() => undefined);
  await until(
    async () => ((await exported(b, chatId)).toolCalls.find((c) => c.id === call.toolCallId)?.state === "running" ? true : undefined),
    "the call to run on A",
    30_000,
  );
  a.kill("SIGKILL");
  // The lease is 30 s, heartbeats come every 10 s: B closes it within a minute of A's last heartbeat.
  const closed = await until(
    async () => {
      const row = (await exported(b, chatId)).toolCalls.find((c) => c.id === call.toolCallId);
      return row?.state === "error" ? row : undefined;
    },
    "B to close A's running call",
    75_000,
  );
  expect(closed.output).toBe(INTERRUPTED);
  const part = (await exported(b, chatId)).messages.flatMap((m) => m.parts).find((p) => p.toolCallId === call.toolCallId);
  expect(part).toMatchObject({ state: "output-error", errorText: INTERRUPTED });
  expect(b.output).toContain("that instance");
});
