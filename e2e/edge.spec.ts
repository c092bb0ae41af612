// Bad input at the edge (issues 14 and 15): every API answer to a malformed request is a 4xx
// `{ error, code }`, never a 500 or a stream that fails later, and never decides or runs anything.
import fs from "node:fs";
import path from "node:path";
import { expect, test, type APIRequestContext, type APIResponse } from "@playwright/test";
import { rawRequest } from "./pages/security-http";

const base = `http://127.0.0.1:${process.env.E2E_PORT}`;
const state = process.env.E2E_STATE as string;

async function expectRefusal(res: APIResponse, status: number, code?: string): Promise<{ error: string; code: string }> {
  const text = await res.text();
  expect(res.status(), text.slice(0, 300)).toBe(status);
  const body = JSON.parse(text) as { error: string; code: string };
  expect(typeof body.error).toBe("string");
  expect(body.error.length).toBeGreaterThan(0);
  expect(typeof body.code).toBe("string");
  if (code) expect(body.code).toBe(code);
  return body;
}

function userMessage(chatId: string, parts: unknown[]) {
  return { id: chatId, message: { id: `${chatId}-u`, role: "user", parts } };
}

test.describe("undecodable and oversized paths", () => {
  test("GET /api/chats/%ff is a 400 with a message, and /chat/%ff is no 500", async ({ request }) => {
    await expectRefusal(await request.get("/api/chats/%ff"), 400);
    await expectRefusal(await request.get("/api/chats/%ff/export"), 400);
    await expectRefusal(await request.delete("/api/chats/%ff/grants/read_file"), 400);
    const page = await request.get("/chat/%ff");
    expect(page.status()).toBeLessThan(500);
    expect(page.status()).toBeGreaterThanOrEqual(400);
  });

  test("a chat id of 8,000 characters is a 400", async ({ request }) => {
    await expectRefusal(await request.get(`/api/chats/${"a".repeat(8000)}`), 400);
  });

  test("try-it with a path of 8,000 characters answers the tool's error, not a 500", async ({ request }) => {
    const res = await request.post("/api/tools/read_file/invoke", { data: { input: { path: "a/".repeat(4000) } } });
    expect(res.status()).toBe(200);
    const body = (await res.json()) as { status: string; text: string };
    expect(body.status).toBe("done");
    expect(body.text).toMatch(/^Error: /);
  });
});

test.describe("chat request bodies", () => {
  test("a text part whose text is not a string is a 400 before any model runs", async ({ request }) => {
    const chatId = `edge-42-${Date.now()}`;
    const body = await expectRefusal(await request.post("/api/chat", { data: userMessage(chatId, [{ type: "text", text: 42 }]) }), 400, "invalid_request");
    expect(body.error).toMatch(/text/);
    expect((await request.get(`/api/chats/${chatId}`)).status()).toBe(404);
  });

  test("a user message above the size limit is a 413", async ({ request }) => {
    const chatId = `edge-big-${Date.now()}`;
    const res = await request.post("/api/chat", { data: userMessage(chatId, [{ type: "text", text: "x".repeat(1024 * 1024 + 10) }]) });
    const body = await expectRefusal(res, 413, "message_too_large");
    expect(body.error).toMatch(/chat\.maxMessageBytes/);
    expect((await request.get(`/api/chats/${chatId}`)).status()).toBe(404);
  });

  test("a body that is not JSON is a 400 in the one shape", async ({ request }) => {
    await expectRefusal(await request.post("/api/chat", { data: "{not json", headers: { "content-type": "application/json" } }), 400);
    await expectRefusal(await request.patch("/api/chats/nope", { data: "{not json", headers: { "content-type": "application/json" } }), 400);
  });
});

/** Starts a supervised chat whose offline model asks to run `touch <marker>`; returns the assistant message waiting for approval. */
async function pendingTouch(request: APIRequestContext, chatId: string, marker: string) {
  const res = await request.post("/api/chat", { data: { ...userMessage(chatId, [{ type: "text", text: `run \`touch ${marker}\`` }]), supervised: true } });
  expect(res.status()).toBe(200);
  await res.text();
  const detail = (await (await request.get(`/api/chats/${chatId}`)).json()) as { messages: { id: string; role: string; parts: Record<string, unknown>[] }[] };
  const last = detail.messages.at(-1)!;
  expect(last.role).toBe("assistant");
  const part = last.parts.find((p) => p.state === "approval-requested");
  expect(part, JSON.stringify(last.parts)).toBeDefined();
  return { last, part: part! };
}

test.describe("approval responses are validated strictly", () => {
  for (const approved of ["false", "yes", 1, null]) {
    test(`approved: ${JSON.stringify(approved)} is a 400 and decides nothing`, async ({ request }) => {
      const chatId = `edge-appr-${String(approved)}-${Date.now()}`;
      const marker = path.join(state, `${chatId}.marker`);
      const { last, part } = await pendingTouch(request, chatId, marker);
      const answered = {
        ...last,
        parts: last.parts.map((p) => (p === part ? { ...p, state: "approval-responded", approval: { ...(p.approval as object), approved } } : p)),
      };
      await expectRefusal(await request.post("/api/chat", { data: { id: chatId, message: answered } }), 400, "invalid_request");
      await new Promise((r) => setTimeout(r, 1000));
      expect(fs.existsSync(marker)).toBe(false);
      // Still pending: nothing was decided, so a real decision is still accepted.
      const after = (await (await request.get(`/api/chats/${chatId}`)).json()) as { messages: { parts: Record<string, unknown>[] }[] };
      expect(after.messages.at(-1)!.parts.some((p) => p.state === "approval-requested")).toBe(true);
      const deny = {
        ...last,
        parts: last.parts.map((p) =>
          p === part ? { ...p, state: "approval-responded", approval: { ...(p.approval as object), approved: false, reason: "edge test" } } : p,
        ),
      };
      const denied = await request.post("/api/chat", { data: { id: chatId, message: deny } });
      expect(denied.status()).toBe(200);
      await denied.text();
      expect(fs.existsSync(marker)).toBe(false);
    });
  }

  test("an approval reason above the length limit is a 400", async ({ request }) => {
    const chatId = `edge-reason-${Date.now()}`;
    const marker = path.join(state, `${chatId}.marker`);
    const { last, part } = await pendingTouch(request, chatId, marker);
    const answered = {
      ...last,
      parts: last.parts.map((p) =>
        p === part ? { ...p, state: "approval-responded", approval: { ...(p.approval as object), approved: false, reason: "r".repeat(5000) } } : p,
      ),
    };
    await expectRefusal(await request.post("/api/chat", { data: { id: chatId, message: answered } }), 400, "invalid_request");
  });

  test("try-it decisions are validated the same way", async ({ request }) => {
    const input = { command: `touch ${path.join(state, `edge-tryit-${Date.now()}.marker`)}` };
    const asked = (await (await request.post("/api/tools/run_terminal_command/invoke", { data: { input } })).json()) as { status: string; approvalId: string };
    expect(asked.status).toBe("approval-required");
    await expectRefusal(
      await request.post("/api/tools/run_terminal_command/invoke", {
        data: { input, approvalId: asked.approvalId, decision: "deny", reason: "r".repeat(5000) },
      }),
      400,
      "invalid_request",
    );
    await expectRefusal(
      await request.post("/api/tools/run_terminal_command/invoke", { data: { input, approvalId: asked.approvalId, decision: true } }),
      400,
      "invalid_request",
    );
  });
});

test("DELETE of a grant on an unknown chat is a 404", async ({ request }) => {
  await expectRefusal(await request.delete(`/api/chats/edge-no-such-chat/grants/read_file`), 404, "unknown_chat");
});

test("trailing-slash redirects carry the security headers", async () => {
  for (const [url, location] of [
    ["/tools/", "/tools"],
    ["/settings/?x=1", "/settings?x=1"],
    ["/api/tools/", "/api/tools"],
  ]) {
    const res = await rawRequest(`${base}${url}`);
    expect(res.status, url).toBe(308);
    expect(res.headers.location, url).toBe(location);
    expect(res.headers["content-security-policy"], url).toContain("frame-ancestors 'none'");
    expect(res.headers["x-frame-options"], url).toBe("DENY");
    expect(res.headers["x-content-type-options"], url).toBe("nosniff");
    expect(res.headers["referrer-policy"], url).toBe("no-referrer");
  }
});

// Next answers `//` and `\\` in a path before the proxy runs (there is no setting to turn that off):
// a 308 whose Location and body are the same path with single slashes. Safe without the headers:
// it is never `//host` (no open redirect), the body is that path as text, and the page it leads
// to is served through the proxy with every header.
test("repeated-slash redirects stay on this origin and lead to a page with the headers", async () => {
  for (const [url, location] of [
    ["//tools", "/tools"],
    ["//evil.example/", "/evil.example/"],
    ["/tools//x", "/tools/x"],
  ]) {
    const res = await rawRequest(`${base}${url}`);
    expect(res.status, url).toBe(308);
    expect(res.headers.location, url).toBe(location);
    expect(res.body.trim(), url).toBe(location);
  }
  const target = await rawRequest(`${base}/tools`);
  expect(target.headers["x-frame-options"]).toBe("DENY");
});
