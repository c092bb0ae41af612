// Every state-changing route either writes an audit line naming who acted, or says here why it
// does not (issue AA: "every approval decision, rule change and settings-page action records the
// user"). The routes are found on disk as route-guards.test.ts finds them: a new one that is in
// neither table fails the first test, and each audited one is driven through its real handler by a
// signed-in person and must leave its line — on SQLite here, on PostgreSQL in the storage-pg run.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appRoutes } from "@/lib/testing/app-routes";
import { readAssistantMessage, startServer, useTempDatabase } from "@/lib/testing/approvals-harness";
import { startFakeEmbeddings, type FakeEmbeddingServer } from "@/lib/testing/embeddings-server";
import { startOAuthMcpServer, type OAuthMcpServer } from "@/lib/testing/oauth-mcp-server.mjs";
import { testEngine } from "@/lib/testing/test-database";

const dir = useTempDatabase("audit-trail-");
const source = path.join(dir, "src");

/** The audit line each state-changing route writes (`METHOD /path`, params as x). */
const AUDITED: Record<string, string> = {
  "POST /api/first-admin": "user.added",
  "POST /api/approval-rules": "rule.created",
  "PATCH /api/approval-rules/x": "rule.changed",
  "DELETE /api/approval-rules/x": "rule.deleted",
  "POST /api/mcp-oauth/x/sign-in": "mcp.sign-in-started",
  "GET /oauth/callback": "mcp.signed-in",
  "POST /api/mcp-oauth/x/sign-out": "mcp.signed-out",
  "POST /api/evals": "eval.started",
  "POST /api/evals/x/cancel": "eval.cancelled",
  "POST /api/evals/x/partial": "eval.partial-opened",
  "POST /api/evals/x/resume": "eval.resumed",
  "POST /api/evals/cases": "eval.case-saved",
  "POST /api/collections/runs": "collection.run-started",
  "POST /api/collections/runs/x/stop": "collection.run-stopped",
  "POST /api/collections/calls": "collection.call-saved",
  "POST /api/tools/x/index": "search-index.build-started",
  "POST /api/chats/x/share": "chat.shared",
  "DELETE /api/chats/x/share": "chat.unshared",
  "DELETE /api/chats/x/grants/x": "grant.revoked",
  "POST /api/elicitations/x": "elicitation.decline",
};

/** State-changing routes that write no line of their own, and why. */
const NOT_AUDITED: Record<string, string> = {
  "POST /api/auth/get-session": "better-auth's own endpoints (sign-in, sign-out): the session rows are their record",
  "POST /api/chat": "a turn in the person's own chat; the approvals it carries are audited where they are decided",
  "PATCH /api/chats/x": "the title and settings of the person's own chat",
  "DELETE /api/chats/x": "deletes the person's own chat",
  "POST /api/chats/x/stop": "stops a turn of the person's own chat",
  "DELETE /api/chats/x/running/x": "cancels a running call of the person's own chat (the call records it)",
  "POST /api/compare": "makes the person's own chats",
  "POST /api/tools/x/invoke": "try-it runs a call; its approval decisions are audited (approval.*)",
  "POST /api/collections/runs/x/step": "runs a collection's next call; the decision it carries is audited by try-it",
  "POST /api/mcp": "the MCP transport: its calls are kept as chats with their decisions",
  "DELETE /api/mcp": "ends an MCP session",
  "POST /api/sources/x/complete": "a read (completion) sent as POST",
  "POST /api/sources/x/prompt": "a read (a prompt's messages) sent as POST",
  "POST /api/sources/x/read": "a read (a resource) sent as POST",
  "POST /api/sources/x/subscription": "follows a resource's updates for the page; nothing is stored",
};

/**
 * The GET routes that change state (a sign-in's callback is a redirect the browser follows): every
 * other GET is a read. A new one must be added here by hand; nothing on disk tells them apart.
 */
const STATE_CHANGING_GETS = ["GET /oauth/callback"];

let remote: OAuthMcpServer;
let embeddings: FakeEmbeddingServer;
let people: typeof import("./people");
const tokens: Record<string, string> = {};
const ids: Record<string, string> = {};

beforeAll(async () => {
  fs.mkdirSync(path.join(source, "suites"), { recursive: true });
  fs.writeFileSync(path.join(source, "notes.txt"), "alpha\n");
  // Long enough that Cancel finds it running (on SQLite its trials run in this process).
  fs.writeFileSync(path.join(source, "suites/many.eval.yaml"), "name: many\nmatrix: { trials: 200 }\ncases: [{ name: c, prompt: hi }]\n");
  fs.writeFileSync(path.join(source, "checks.calls.yaml"), "name: checks\ncalls:\n  - { name: read, tool: read_file, input: { path: notes.txt } }\n");
  remote = await startOAuthMcpServer();
  embeddings = await startFakeEmbeddings();
  await startServer({
    TOOLROOM_AUTH__REQUIRED: "true",
    TOOLROOM_SOURCEROOT: source,
    TOOLROOM_RUNSROOT: path.join(dir, "runs"),
    TOOLROOM_MCPSERVERS: JSON.stringify({ remote: { url: remote.url, prefix: "remote_" } }),
    // A layer that sets llms replaces them: the offline model (the default chat's) comes along.
    TOOLROOM_LLMS: JSON.stringify({
      offline: { provider: "offline" },
      embedder: { provider: "openai-compatible", baseURL: embeddings.baseURL, model: "concept-embed" },
    }),
    TOOLROOM_SEARCH__EMBEDDINGS: JSON.stringify({ type: "ref", ref: "embedder" }),
  });
  people = await import("./people");
}, 60_000);

afterAll(async () => {
  const { getRegistry } = await import("@/lib/server/runtime/registry");
  await (await getRegistry()).close?.();
  if (testEngine() === "postgresql") await (await import("@/lib/server/jobs/trial-queue")).stopTrialWork(false);
  await remote.close();
  await embeddings.close();
});

const bearer = (who: string) => ({ Authorization: `Bearer ${tokens[who]}` });

/** One call of a route handler as `who`, with a JSON body when given. */
async function send(who: string, method: string, url: string, handler: (r: Request, c: never) => Promise<Response>, params = {}, body?: unknown) {
  const request = new Request(`http://127.0.0.1:3000${url}`, {
    method,
    headers: { ...(who ? bearer(who) : {}), ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return handler(request, { params: Promise.resolve(params) } as never);
}

async function evalState(id: string): Promise<string> {
  const { asPerson } = await import("./person");
  const { evalRuns } = await import("@/lib/server/evals/eval-runs");
  return (await asPerson({ id: ids.mia!, email: "mia@example.com", role: "member" }, evalRuns)).find((r) => r.id === id)!.state;
}

async function until(done: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 1200 && !(await done()); i++) await new Promise((resolve) => setTimeout(resolve, 25));
}

// What the steps hand on to each other: ids of what they made.
const made: Record<string, string> = {};

/** Each audited route driven as a person, in an order where each finds what it needs. */
const STEPS: { route: string; by: string; run: () => Promise<Response> }[] = [
  {
    route: "POST /api/first-admin",
    by: "ada@example.com",
    run: async () => {
      const { POST } = await import("@/app/api/first-admin/route");
      const response = await send("", "POST", "/api/first-admin", POST, {}, { email: "ada@example.com", password: "admin password 1" });
      // The rest of the team, made on the server's machine (as `toolroom users add` does).
      for (const [name, role] of [
        ["mia", "member"],
        ["otto", "member"],
      ] as const)
        ids[name] = (await people.addUser({ email: `${name}@example.com`, role, password: `${role} password 1` })).id;
      for (const name of ["ada", "mia", "otto"]) tokens[name] = await people.createToken(`${name}@example.com`, "t");
      return response;
    },
  },
  {
    route: "POST /api/approval-rules",
    by: "ada@example.com",
    run: async () => {
      const { POST } = await import("@/app/api/approval-rules/route");
      const response = await send("ada", "POST", "/api/approval-rules", POST, {}, { tool: "read_file", decision: "ask" });
      made.rule = ((await response.clone().json()) as { rule: { id: string } }).rule.id;
      return response;
    },
  },
  {
    route: "PATCH /api/approval-rules/x",
    by: "ada@example.com",
    run: async () => {
      const { PATCH } = await import("@/app/api/approval-rules/[id]/route");
      return send("ada", "PATCH", `/api/approval-rules/${made.rule}`, PATCH, { id: made.rule }, { enabled: false });
    },
  },
  {
    route: "DELETE /api/approval-rules/x",
    by: "ada@example.com",
    run: async () => {
      const { DELETE } = await import("@/app/api/approval-rules/[id]/route");
      return send("ada", "DELETE", `/api/approval-rules/${made.rule}`, DELETE, { id: made.rule });
    },
  },
  {
    route: "POST /api/mcp-oauth/x/sign-in",
    by: "ada@example.com",
    run: async () => {
      const { POST } = await import("@/app/api/mcp-oauth/[server]/sign-in/route");
      const response = await send("ada", "POST", "/api/mcp-oauth/remote/sign-in", POST, { server: "remote" }, { returnTo: "/sources/oauth" });
      const { authorizationUrl } = (await response.clone().json()) as { authorizationUrl: string };
      // What the browser does at the authorization page: follow its redirect back to Toolroom.
      made.callback = (await fetch(authorizationUrl, { redirect: "manual" })).headers.get("location") ?? "";
      return response;
    },
  },
  {
    route: "GET /oauth/callback",
    by: "ada@example.com",
    run: async () => {
      const { GET } = await import("@/app/oauth/callback/route");
      const callback = new URL(made.callback!);
      return send("ada", "GET", `${callback.pathname}${callback.search}`, GET);
    },
  },
  {
    route: "POST /api/mcp-oauth/x/sign-out",
    by: "ada@example.com",
    run: async () => {
      const { POST } = await import("@/app/api/mcp-oauth/[server]/sign-out/route");
      return send("ada", "POST", "/api/mcp-oauth/remote/sign-out", POST, { server: "remote" });
    },
  },
  {
    route: "POST /api/evals",
    by: "mia@example.com",
    run: async () => {
      const { POST } = await import("@/app/api/evals/route");
      const response = await send("mia", "POST", "/api/evals", POST, {}, { suite: "source:suites/many.eval.yaml" });
      made.eval = ((await response.clone().json()) as { run: { id: string } }).run.id;
      return response;
    },
  },
  {
    route: "POST /api/evals/x/cancel",
    by: "otto@example.com",
    run: async () => {
      const { POST } = await import("@/app/api/evals/[id]/cancel/route");
      const response = await send("otto", "POST", `/api/evals/${made.eval}/cancel`, POST, { id: made.eval });
      await until(async () => (await evalState(made.eval!)) === "cancelled");
      return response;
    },
  },
  {
    route: "POST /api/evals/x/partial",
    by: "mia@example.com",
    run: async () => {
      // A run a restart interrupted, as the sweep leaves it (a cancelled run here has its folder already).
      const { createEvalRun } = await import("@/lib/db/eval-queries");
      const id = "audit-trail-interrupted";
      await createEvalRun({
        id,
        suiteKey: "source:suites/many.eval.yaml",
        suite: "many",
        label: "suites/many.eval.yaml",
        choice: "{}",
        state: "interrupted",
        startedAt: new Date(),
        finishedAt: null,
        total: 200,
        runRel: null,
        partial: false,
        cells: null,
        error: null,
      });
      const { POST } = await import("@/app/api/evals/[id]/partial/route");
      return send("mia", "POST", `/api/evals/${id}/partial`, POST, { id });
    },
  },
  {
    route: "POST /api/evals/x/resume",
    by: "otto@example.com",
    run: async () => {
      const route = await import("@/app/api/evals/[id]/resume/route");
      const response = await send("otto", "POST", `/api/evals/${made.eval}/resume`, route.POST, { id: made.eval });
      // Ended again, so no trial runs on past the test.
      const cancel = await import("@/app/api/evals/[id]/cancel/route");
      await send("otto", "POST", `/api/evals/${made.eval}/cancel`, cancel.POST, { id: made.eval });
      await until(async () => (await evalState(made.eval!)) !== "running");
      return response;
    },
  },
  {
    route: "POST /api/evals/cases",
    by: "mia@example.com",
    run: async () => {
      const { POST } = await import("@/app/api/evals/cases/route");
      return send("mia", "POST", "/api/evals/cases", POST, {}, { file: "saved.eval.yaml", text: "name: greets\nprompt: hi\n" });
    },
  },
  {
    route: "POST /api/collections/runs",
    by: "mia@example.com",
    run: async () => {
      const { POST } = await import("@/app/api/collections/runs/route");
      const response = await send("mia", "POST", "/api/collections/runs", POST, {}, { key: "source:checks.calls.yaml" });
      made.collectionRun = ((await response.clone().json()) as { run: { id: string } }).run.id;
      return response;
    },
  },
  {
    route: "POST /api/collections/runs/x/stop",
    by: "otto@example.com",
    run: async () => {
      const { POST } = await import("@/app/api/collections/runs/[id]/stop/route");
      return send("otto", "POST", `/api/collections/runs/${made.collectionRun}/stop`, POST, { id: made.collectionRun });
    },
  },
  {
    route: "POST /api/collections/calls",
    by: "mia@example.com",
    run: async () => {
      const { POST } = await import("@/app/api/collections/calls/route");
      const text = "name: again\ntool: read_file\ninput: { path: notes.txt }\nexpect: { contains: alpha }\n";
      return send("mia", "POST", "/api/collections/calls", POST, {}, { file: "saved.calls.yaml", text });
    },
  },
  {
    route: "POST /api/tools/x/index",
    by: "mia@example.com",
    run: async () => {
      const { GET, POST } = await import("@/app/api/tools/[name]/index/route");
      const response = await send("mia", "POST", "/api/tools/search_code/index", POST, { name: "search_code" });
      await until(
        async () =>
          !((await (await send("mia", "GET", "/api/tools/search_code/index", GET, { name: "search_code" })).json()) as { building: boolean }).building,
      );
      return response;
    },
  },
  {
    route: "POST /api/chats/x/share",
    by: "mia@example.com",
    run: async () => {
      const chat = await import("@/app/api/chat/route");
      made.chat = "audit-trail-chat";
      const message = { id: `${made.chat}-u1`, role: "user", parts: [{ type: "text", text: "list files in ." }] };
      await readAssistantMessage(await send("mia", "POST", "/api/chat", chat.POST, {}, { id: made.chat, message }));
      const { POST } = await import("@/app/api/chats/[id]/share/route");
      return send("mia", "POST", `/api/chats/${made.chat}/share`, POST, { id: made.chat });
    },
  },
  {
    route: "DELETE /api/chats/x/share",
    by: "mia@example.com",
    run: async () => {
      const { DELETE } = await import("@/app/api/chats/[id]/share/route");
      return send("mia", "DELETE", `/api/chats/${made.chat}/share`, DELETE, { id: made.chat });
    },
  },
  {
    route: "DELETE /api/chats/x/grants/x",
    by: "mia@example.com",
    run: async () => {
      const { DELETE } = await import("@/app/api/chats/[id]/grants/[tool]/route");
      return send("mia", "DELETE", `/api/chats/${made.chat}/grants/list_files`, DELETE, { id: made.chat, tool: "list_files" });
    },
  },
  {
    route: "POST /api/elicitations/x",
    by: "mia@example.com",
    run: async () => {
      // A tool of mia's chat asks her a question (as a running call would), and she declines it.
      const { askPerson, pendingIn } = await import("@/lib/server/elicitations/pending");
      const { asPerson } = await import("./person");
      const schema = { type: "object" as const, properties: { ok: { type: "boolean" as const } } };
      const asked = askPerson(made.chat!, "list_files", "Go on?", schema, { timeoutSeconds: 60, ownerId: ids.mia! });
      const [question] = asPerson({ id: ids.mia!, email: "mia@example.com", role: "member" }, () => pendingIn(made.chat!));
      const { POST } = await import("@/app/api/elicitations/[id]/route");
      const response = await send("mia", "POST", `/api/elicitations/${question!.id}`, POST, { id: question!.id }, { scope: made.chat, action: "decline" });
      await asked;
      return response;
    },
  },
];

describe("the audit trail", () => {
  it("knows every state-changing route: audited, or why not", () => {
    const routes = appRoutes();
    const changing = routes.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`);
    const gets = new Set(routes.filter((r) => r.method === "GET").map((r) => `${r.method} ${r.path}`));
    for (const get of STATE_CHANGING_GETS) expect(gets, get).toContain(get);
    const known = [...Object.keys(AUDITED), ...Object.keys(NOT_AUDITED)];
    expect(Object.keys(AUDITED).filter((r) => r in NOT_AUDITED)).toEqual([]);
    expect(
      [...changing, ...STATE_CHANGING_GETS].filter((r) => !known.includes(r)),
      "new state-changing routes: audit them, or say why not",
    ).toEqual([]);
    expect(
      known.filter((r) => !changing.includes(r) && !STATE_CHANGING_GETS.includes(r)),
      "routes that are gone",
    ).toEqual([]);
    expect(STEPS.map((s) => s.route).sort()).toEqual(Object.keys(AUDITED).sort());
  });

  for (const step of STEPS)
    it(`${step.route} writes ${AUDITED[step.route]} by the person who acted`, async () => {
      const { auditEvents } = await import("./audit");
      const before = new Set((await auditEvents()).map((e) => e.id));
      const response = await step.run();
      expect(response.status, `${step.route}: ${await response.clone().text()}`).toBeLessThan(400);
      const written = (await auditEvents()).filter((e) => !before.has(e.id));
      expect(written.map((e) => [e.action, e.userEmail])).toContainEqual([AUDITED[step.route], step.by]);
    });

  it("the audit page shows each line with what it was about", async () => {
    const { auditEvents } = await import("./audit");
    const { auditDetail } = await import("./audit-view");
    const events = await auditEvents();
    const started = events.find((e) => e.action === "eval.started")!;
    expect(auditDetail(started.detail)).toBe("suite suites/many.eval.yaml · trials 200");
    expect(auditDetail(events.find((e) => e.action === "grant.revoked")!.detail)).toBe("tool list_files");
    expect(auditDetail(null)).toBe("");
  });
});
