// With sign-in required, no route answers anyone it does not know: every route file under app/ is
// found on disk, imported, and every method it exports is called anonymously (401), with a forged
// token (401), and with a role too weak for it (403). A new route that skips the guard fails here.
// Then the team path through the real handlers: tokens, sessions, guessing, private chats and
// who approved — on a throwaway database (SQLite here, PostgreSQL in the storage-pg run).
import fs from "node:fs";
import path from "node:path";
import type { UIMessage } from "ai";
import { beforeAll, describe, expect, it } from "vitest";
import { readAssistantMessage, startServer, useTempDatabase } from "@/lib/testing/approvals-harness";

const dir = useTempDatabase("route-guards-");
const markers = path.join(dir, "markers");
fs.mkdirSync(markers);

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];
interface Route {
  file: string;
  path: string;
  method: Method;
  access: string | null;
}

/** Every route handler of the app, with the access its `handle(…)` declares (null: none found). */
function routes(): Route[] {
  const found: Route[] = [];
  const walk = (folder: string) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === "route.ts") {
        const source = fs.readFileSync(full, "utf8");
        const urlPath = `/${path.relative("app", path.dirname(full))}`.replace(/\[\.\.\.[^\]]+\]/g, "get-session").replace(/\[[^\]]+\]/g, "x");
        for (const method of METHODS) {
          if (!new RegExp(`export (const|async function|function) ${method}\\b`).test(source)) continue;
          const access = new RegExp(`export const ${method} = handle\\("(public|viewer|member|admin)"`).exec(source)?.[1] ?? null;
          found.push({ file: full, path: urlPath, method, access });
        }
      }
    }
  };
  walk("app");
  return found;
}

const params = { id: "x", tool: "x", name: "x", server: "x", callId: "x", all: ["get-session"] };

async function call(route: Route, headers: Record<string, string> = {}): Promise<Response> {
  const mod = (await import(/* @vite-ignore */ path.resolve(route.file))) as Record<Method, (r: Request, c: unknown) => Promise<Response>>;
  const hasBody = route.method !== "GET" && route.method !== "DELETE";
  const request = new Request(`http://127.0.0.1:3000${route.path}`, {
    method: route.method,
    headers: { ...(hasBody ? { "Content-Type": "application/json" } : {}), ...headers },
    ...(hasBody ? { body: "{}" } : {}),
  });
  return mod[route.method](request, { params: Promise.resolve(params) });
}

let people: typeof import("./people");
let tokens: { viewer: string; member: string; other: string; admin: string };
const ids: Record<string, string> = {};

beforeAll(async () => {
  await startServer({
    TOOLROOM_AUTH__REQUIRED: "true",
    TOOLROOM_SOURCEROOT: markers,
    TOOLROOM_TOOLS__RUN_TERMINAL_COMMAND__ENABLED: "true",
    TOOLROOM_TOOLS__RUN_TERMINAL_COMMAND__ALLOWEDCOMMANDS: "[touch]",
    // A tool that asks the person a question while it runs (try-it's questions are its starter's too).
    TOOLROOM_PLUGINS__PATHS: JSON.stringify([path.resolve("examples/plugins/mcp-conformance-fixtures")]),
  });
  people = await import("./people");
  for (const [email, role] of [
    ["vera@example.com", "viewer"],
    ["mia@example.com", "member"],
    ["otto@example.com", "member"],
    ["ada@example.com", "admin"],
  ] as const)
    ids[email] = (await people.addUser({ email, role, password: `${role} password 1` })).id;
  tokens = {
    viewer: await people.createToken("vera@example.com", "t"),
    member: await people.createToken("mia@example.com", "t"),
    other: await people.createToken("otto@example.com", "t"),
    admin: await people.createToken("ada@example.com", "t"),
  };
});

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

describe("every route is guarded", () => {
  const all = routes();

  it("finds the app's routes, and each declares its access", () => {
    expect(all.length).toBeGreaterThan(50);
    expect(all.filter((r) => r.access === null).map((r) => `${r.method} ${r.path}`)).toEqual([]);
    // Only sign-in itself (and making the first admin) is open.
    expect(all.filter((r) => r.access === "public").map((r) => r.path)).toEqual(expect.arrayContaining(["/api/auth/get-session", "/api/first-admin"]));
    expect(new Set(all.filter((r) => r.access === "public").map((r) => r.path))).toEqual(new Set(["/api/auth/get-session", "/api/first-admin"]));
  });

  it("answers 401 JSON to a request without a session or token, and to a forged token", async () => {
    for (const route of all.filter((r) => r.access !== "public")) {
      for (const headers of [{}, bearer("tr_forged-token-that-was-never-issued"), bearer("not-even-ours")]) {
        const response = await call(route, headers);
        expect(response.status, `${route.method} ${route.path}`).toBe(401);
        expect(await response.json()).toMatchObject({ code: "unauthenticated" });
      }
    }
  });

  it("answers 403 to a role too weak for the route", async () => {
    const weaker = { member: tokens.viewer, admin: tokens.member } as Record<string, string>;
    const guarded = all.filter((r) => r.access === "member" || r.access === "admin");
    expect(guarded.length).toBeGreaterThan(25);
    for (const route of guarded) {
      const response = await call(route, bearer(weaker[route.access!]!));
      expect(response.status, `${route.method} ${route.path}`).toBe(403);
      expect(await response.json()).toMatchObject({ code: "forbidden" });
    }
  });

  it("/api/mcp challenges with WWW-Authenticate: Bearer, and takes a member's token", async () => {
    const { POST } = await import("@/app/api/mcp/route");
    const initialize = (headers: Record<string, string>) =>
      POST(
        new Request("http://127.0.0.1:3000/api/mcp", {
          method: "POST",
          headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "initialize",
            params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
          }),
        }),
      );
    const anonymous = await initialize({});
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toMatch(/^Bearer /);
    const signed = await initialize(bearer(tokens.member));
    expect(signed.status).toBe(200);
    expect(await signed.text()).toContain('"serverInfo"');
  });
});

describe("people, tokens and sessions", () => {
  const signIn = async (email: string, password: string, address: string) => {
    const { POST } = await import("@/app/api/auth/[...all]/route");
    return POST(
      new Request("http://127.0.0.1:3000/api/auth/sign-in/email", {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: "http://127.0.0.1:3000", "X-Forwarded-For": address },
        body: JSON.stringify({ email, password }),
      }),
    );
  };

  it("a signed-in session works on the API; no plain password is stored", async () => {
    const response = await signIn("mia@example.com", "member password 1", "10.0.0.1");
    expect(response.status).toBe(200);
    const cookie = response.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    const { GET } = await import("@/app/api/chats/route");
    const chats = await GET(new Request("http://127.0.0.1:3000/api/chats", { headers: { Cookie: cookie.split(";")[0]! } }));
    expect(chats.status).toBe(200);
    const { db } = await import("@/lib/db/client");
    const stored = JSON.stringify(await db().account.findMany());
    expect(stored).not.toContain("member password 1");
    expect(stored).toMatch(/"password":"[0-9a-f]{32}:[0-9a-f]+"/);
    expect(JSON.stringify(await db().apiToken.findMany())).not.toContain(tokens.member);
  });

  it("slows down guessing one account's password, whatever the address", async () => {
    const answers: number[] = [];
    for (let i = 0; i < 7; i++) answers.push((await signIn("otto@example.com", "wrong guess", `10.1.0.${i}`)).status);
    expect(answers.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(answers.slice(5)).toEqual([429, 429]);
    // The right password is refused too while the account waits: the guesser cannot tell.
    const right = await signIn("otto@example.com", "member password 1", "10.1.0.99");
    expect(right.status).toBe(429);
    expect(await right.json()).toMatchObject({ code: "too_many_attempts" });
  });

  it("slows down one address trying many accounts", async () => {
    const answers: number[] = [];
    for (let i = 0; i < 7; i++) answers.push((await signIn(`nobody${i}@example.com`, "wrong guess", "10.2.0.1")).status);
    expect(answers.filter((s) => s === 429).length).toBeGreaterThanOrEqual(2);
    expect(answers[0]).toBe(401);
  });

  it("a revoked token, and a removed user's token, are refused at the next request", async () => {
    const { GET } = await import("@/app/api/tools/route");
    const token = await people.createToken("vera@example.com", "short-lived");
    expect((await GET(new Request("http://127.0.0.1:3000/api/tools", { headers: bearer(token) }))).status).toBe(200);
    await people.revokeToken("vera@example.com", "short-lived");
    expect((await GET(new Request("http://127.0.0.1:3000/api/tools", { headers: bearer(token) }))).status).toBe(401);
    await people.addUser({ email: "gone@example.com", role: "member", password: "gone password 1" });
    const gone = await people.createToken("gone@example.com", "t");
    await people.removeUser("gone@example.com");
    expect((await GET(new Request("http://127.0.0.1:3000/api/tools", { headers: bearer(gone) }))).status).toBe(401);
  });

  it("a changed role holds at the next request", async () => {
    const { POST } = await import("@/app/api/approval-rules/route");
    const attempt = () => POST(new Request("http://127.0.0.1:3000/api/approval-rules", { method: "POST", headers: bearer(tokens.other), body: "{}" }));
    expect((await attempt()).status).toBe(403);
    await people.setRole("otto@example.com", "admin");
    expect((await attempt()).status).toBe(400); // past the guard: the empty rule is what is refused now
    await people.setRole("otto@example.com", "member");
  });
});

describe("private chats and who decided", () => {
  const chatRoute = async (token: string, body: unknown) => {
    const { POST } = await import("@/app/api/chat/route");
    return POST(
      new Request("http://127.0.0.1:3000/api/chat", {
        method: "POST",
        headers: { ...bearer(token), "Content-Type": "application/json" },
        body: JSON.stringify(body),
      }),
    );
  };

  it("a member's chat is theirs: others get 404 and do not see it listed; the approver's email is on the call and in the export", async () => {
    const chatId = "mia-private-chat";
    const first = await chatRoute(tokens.member, {
      id: chatId,
      message: { id: `${chatId}-u1`, role: "user", parts: [{ type: "text", text: "run `touch made-by-mia`" }] },
    });
    expect(first.status).toBe(200);
    const assistant = await readAssistantMessage(first);
    const part = assistant.parts.find((p) => "approval" in p && p.approval) as { toolCallId: string; approval: { id: string } } | undefined;
    expect(part, "the call waits for approval").toBeDefined();

    const { GET: list } = await import("@/app/api/chats/route");
    const listed = async (token: string) =>
      ((await (await list(new Request("http://127.0.0.1:3000/api/chats", { headers: bearer(token) }))).json()) as { chats: { id: string }[] }).chats.map(
        (c) => c.id,
      );
    expect(await listed(tokens.member)).toContain(chatId);
    expect(await listed(tokens.other)).not.toContain(chatId);
    const { GET: one } = await import("@/app/api/chats/[id]/route");
    const read = (token: string) =>
      one(new Request(`http://127.0.0.1:3000/api/chats/${chatId}`, { headers: bearer(token) }), { params: Promise.resolve({ id: chatId }) });
    expect((await read(tokens.other)).status).toBe(404);
    expect((await read(tokens.member)).status).toBe(200);

    // Another member cannot answer the approval, or post into the chat at all.
    const stored = ((await (await read(tokens.member)).json()) as { messages: UIMessage[] }).messages.at(-1)!;
    const approved = {
      ...stored,
      parts: stored.parts.map((p) =>
        "toolCallId" in p && p.toolCallId === part!.toolCallId ? { ...p, state: "approval-responded", approval: { ...part!.approval, approved: true } } : p,
      ),
    };
    expect((await chatRoute(tokens.other, { id: chatId, message: approved })).status).toBe(404);
    expect(fs.existsSync(path.join(markers, "made-by-mia"))).toBe(false);

    await readAssistantMessage(await chatRoute(tokens.member, { id: chatId, message: approved }), structuredClone(approved) as UIMessage);
    expect(fs.existsSync(path.join(markers, "made-by-mia"))).toBe(true);
    const { GET: exportRoute } = await import("@/app/api/chats/[id]/export/route");
    const exported = (await (
      await exportRoute(new Request(`http://127.0.0.1:3000/api/chats/${chatId}/export`, { headers: bearer(tokens.member) }), {
        params: Promise.resolve({ id: chatId }),
      })
    ).json()) as { toolCalls: { decidedBy: string; decidedByUser: string }[]; messages: UIMessage[] };
    expect(exported.toolCalls[0]).toMatchObject({ decidedBy: "user", decidedByUser: "mia@example.com" });
    expect(JSON.stringify(exported.messages)).toContain('"user":"mia@example.com"');
  });

  it("an owner shares a read-only link: another member cannot make one, the link shows the chat, and stopping ends it", async () => {
    const chatId = "mia-shared-chat";
    await readAssistantMessage(
      await chatRoute(tokens.member, { id: chatId, message: { id: `${chatId}-u1`, role: "user", parts: [{ type: "text", text: "list files in lib" }] } }),
    );
    const route = await import("@/app/api/chats/[id]/share/route");
    const share = (token: string, method: "POST" | "DELETE") =>
      route[method](new Request(`http://127.0.0.1:3000/api/chats/${chatId}/share`, { method, headers: bearer(token) }), {
        params: Promise.resolve({ id: chatId }),
      });
    expect((await share(tokens.other, "POST")).status).toBe(404);
    const made = (await (await share(tokens.member, "POST")).json()) as { shareId: string; path: string };
    expect(made.shareId).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(made.path).toBe(`/shared/${made.shareId}`);
    // Sharing again keeps the link people already have.
    expect(((await (await share(tokens.member, "POST")).json()) as { shareId: string }).shareId).toBe(made.shareId);

    const { sharedChatView } = await import("@/lib/server/chat/chat-view");
    const view = await sharedChatView(made.shareId);
    expect(view).toMatchObject({ title: "list files in lib", sharedBy: "mia@example.com" });
    expect(view!.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(await sharedChatView("x".repeat(24))).toBeNull();

    expect((await share(tokens.other, "DELETE")).status).toBe(404);
    expect((await share(tokens.member, "DELETE")).status).toBe(204);
    expect(await sharedChatView(made.shareId)).toBeNull();
    const { auditEvents } = await import("@/lib/server/auth/audit");
    const events = (await auditEvents({ user: "mia@example.com" })).filter((e) => e.subject === chatId).map((e) => e.action);
    expect(events.sort()).toEqual(["chat.shared", "chat.unshared"]);
  });
});

describe("try-it calls are their starter's", () => {
  const invoke = async (token: string, tool: string, body: unknown) => {
    const { POST } = await import("@/app/api/tools/[name]/invoke/route");
    return POST(
      new Request(`http://127.0.0.1:3000/api/tools/${tool}/invoke`, {
        method: "POST",
        headers: { ...bearer(token), "Content-Type": "application/json" },
        body: JSON.stringify(body),
      }),
      { params: Promise.resolve({ name: tool }) },
    );
  };

  it("another member, or an admin, deciding a member's try-it approval gets 404 as for an id never issued; the starter's decision runs and is audited", async () => {
    const input = { command: "touch made-by-try-it" };
    const asked = (await (await invoke(tokens.member, "run_terminal_command", { input })).json()) as { status: string; approvalId: string };
    expect(asked.status).toBe("approval-required");
    for (const token of [tokens.other, tokens.admin])
      for (const decision of ["approve", "deny"]) {
        const refused = await invoke(token, "run_terminal_command", { input, approvalId: asked.approvalId, decision });
        expect(refused.status, decision).toBe(404);
        expect(await refused.json()).toMatchObject({ status: "error", code: "unknown_approval" });
      }
    const never = await invoke(tokens.other, "run_terminal_command", { input, approvalId: "never-issued", decision: "approve" });
    expect(never.status).toBe(404);
    expect(fs.existsSync(path.join(markers, "made-by-try-it"))).toBe(false);

    // Nothing was spent by the refusals: the starter's approval still runs the call, once.
    const done = await invoke(tokens.member, "run_terminal_command", { input, approvalId: asked.approvalId, decision: "approve" });
    expect(await done.json()).toMatchObject({ status: "done", isError: false });
    expect(fs.existsSync(path.join(markers, "made-by-try-it"))).toBe(true);
    const { auditEvents } = await import("@/lib/server/auth/audit");
    const decided = (await auditEvents()).filter((e) => e.subject === asked.approvalId);
    expect(decided.map((e) => [e.userEmail, e.action])).toEqual([["mia@example.com", "approval.approved"]]);
    expect(JSON.parse(decided[0]!.detail!)).toMatchObject({ tool: "run_terminal_command", from: "try-it" });
  });

  it("the questions a try-it call's tool asks are listed to, and answered by, its starter alone", async () => {
    const scope = "mia-try-it-question";
    const running = invoke(tokens.member, "test_elicitation", { input: { message: "Who are you?" }, elicitScope: scope });
    const { GET } = await import("@/app/api/elicitations/route");
    const listed = async (token: string) =>
      (await (await GET(new Request(`http://127.0.0.1:3000/api/elicitations?scope=try-it:${scope}`, { headers: bearer(token) }))).json()) as {
        pending: { id: string }[];
        answered: unknown[];
      };
    let pending: { id: string }[] = [];
    for (let i = 0; i < 100 && pending.length === 0; i++) {
      pending = (await listed(tokens.member)).pending;
      if (pending.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(pending).toHaveLength(1);
    expect(await listed(tokens.other)).toEqual({ pending: [], answered: [] });
    expect(await listed(tokens.admin)).toEqual({ pending: [], answered: [] });

    const { POST } = await import("@/app/api/elicitations/[id]/route");
    const answer = (token: string) =>
      POST(
        new Request(`http://127.0.0.1:3000/api/elicitations/${pending[0]!.id}`, {
          method: "POST",
          headers: { ...bearer(token), "Content-Type": "application/json" },
          body: JSON.stringify({ scope: `try-it:${scope}`, action: "accept", content: { username: "otto", email: "otto@example.com" } }),
        }),
        { params: Promise.resolve({ id: pending[0]!.id }) },
      );
    expect((await answer(tokens.other)).status).toBe(404);
    expect((await answer(tokens.member)).status).toBe(200);
    expect(await (await running).json()).toMatchObject({ status: "done", text: expect.stringContaining("action=accept") });
    expect((await listed(tokens.other)).answered).toEqual([]);
    expect((await listed(tokens.member)).answered).toHaveLength(1);
  });

  it("a chat's questions are its owner's: another member sees none and cannot answer them", async () => {
    const { askPerson } = await import("@/lib/server/elicitations/pending");
    const schema = { type: "object" as const, properties: { ok: { type: "boolean" as const } } };
    const asked = askPerson("mia-private-chat", "test_elicitation", "Go on?", schema, { timeoutSeconds: 60, ownerId: ids["mia@example.com"]! });
    const { GET } = await import("@/app/api/elicitations/route");
    const listed = async (token: string) =>
      (
        (await (await GET(new Request("http://127.0.0.1:3000/api/elicitations?scope=mia-private-chat", { headers: bearer(token) }))).json()) as {
          pending: { id: string }[];
        }
      ).pending;
    expect(await listed(tokens.other)).toEqual([]);
    const [question] = await listed(tokens.member);
    expect(question).toBeDefined();
    const { POST } = await import("@/app/api/elicitations/[id]/route");
    const answer = (token: string) =>
      POST(
        new Request(`http://127.0.0.1:3000/api/elicitations/${question!.id}`, {
          method: "POST",
          headers: { ...bearer(token), "Content-Type": "application/json" },
          body: JSON.stringify({ scope: "mia-private-chat", action: "decline" }),
        }),
        { params: Promise.resolve({ id: question!.id }) },
      );
    expect((await answer(tokens.other)).status).toBe(404);
    expect((await answer(tokens.member)).status).toBe(200);
    expect(await asked).toEqual({ action: "decline" });
    const { auditEvents } = await import("@/lib/server/auth/audit");
    expect((await auditEvents({ user: "mia@example.com" })).find((e) => e.subject === question!.id)?.action).toBe("elicitation.decline");
  });
});
