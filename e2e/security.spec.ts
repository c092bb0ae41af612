// Localhost hardening against the running app: no drive-by page may read files, run tools or
// approve calls (issue 10). Forged headers go through node:http (e2e/pages/security-http.ts).
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { freePort, rawRequest, StartedServer } from "./pages/security-http";

const base = `http://127.0.0.1:${process.env.E2E_PORT}`;
const state = process.env.E2E_STATE as string;
const SECRET = "sk-e2e-secret-never-shown-123456";

/** A chat request asking the offline model to run `touch <marker>` unsupervised, so it would really run. */
function touchChat(chatId: string, marker: string): string {
  return JSON.stringify({
    id: chatId,
    supervised: false,
    message: { id: `${chatId}-m1`, role: "user", parts: [{ type: "text", text: `run \`touch ${marker}\`` }] },
  });
}

function expectSecurityHeaders(headers: Record<string, string | string[] | undefined>) {
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(headers["content-security-policy"]).toContain("object-src 'none'");
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("no-referrer");
}

test.describe("host check (DNS rebinding)", () => {
  for (const url of ["/tools", "/api/tools", "/api/mcp", "/_next/static/chunks/none.js"]) {
    test(`Host: evil.example gets 403 on ${url}`, async () => {
      for (const method of ["GET", "POST"]) {
        const res = await rawRequest(`${base}${url}`, {
          method,
          headers: { Host: "evil.example", "Content-Type": "application/json" },
          body: method === "POST" ? "{}" : undefined,
        });
        expect(res.status, `${method} ${url}`).toBe(403);
        expect(res.body.trim()).toMatch(/^Forbidden: [^\n]*server\.allowedHosts/);
        expectSecurityHeaders(res.headers);
      }
    });
  }

  test("loopback names pass on this port, whatever their case", async () => {
    const port = process.env.E2E_PORT;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`]) {
      expect((await rawRequest(`${base}/api/tools`, { headers: { Host: host } })).status, host).toBe(200);
    }
    expect((await rawRequest(`${base}/api/tools`, { headers: { Host: `localhost.evil.example:${port}` } })).status).toBe(403);
  });
});

test.describe("origin check (cross-site requests)", () => {
  const cases: [string, Record<string, string>][] = [
    ["JSON from another origin", { Origin: "http://evil.example", "Content-Type": "application/json" }],
    ["a text/plain simple POST from another origin", { Origin: "http://evil.example", "Content-Type": "text/plain;charset=UTF-8" }],
    ["Sec-Fetch-Site: cross-site without Origin", { "Sec-Fetch-Site": "cross-site", "Content-Type": "text/plain" }],
    ["another port on localhost", { Origin: "http://localhost:1", "Content-Type": "application/json" }],
    ["an opaque Origin (sandboxed frame)", { Origin: "null", "Content-Type": "application/json" }],
  ];
  for (const [name, headers] of cases) {
    test(`POST /api/chat with ${name} is refused and runs nothing`, async () => {
      const chatId = `sec-${test.info().testId.replace(/[^A-Za-z0-9_-]/g, "")}-${Date.now()}`;
      const marker = path.join(state, `${chatId}.marker`);
      const res = await rawRequest(`${base}/api/chat`, { method: "POST", headers, body: touchChat(chatId, marker) });
      expect(res.status).toBe(403);
      expect(res.headers["content-type"]).not.toContain("text/event-stream");
      expect(res.body.trim()).toMatch(/^Forbidden: [^\n]+$/);
      // Give a wrongly admitted request time to reach the tool before looking.
      await new Promise((r) => setTimeout(r, 1500));
      expect(fs.existsSync(marker)).toBe(false);
      const chats = await rawRequest(`${base}/api/chats`);
      if (chats.status === 200) expect(chats.body).not.toContain(chatId);
    });
  }

  test("every state-changing method is covered, on any route (MCP and approvals included)", async () => {
    for (const [method, url] of [
      ["PUT", "/api/chats/x"],
      ["PATCH", "/api/chats/x"],
      ["DELETE", "/api/chats/x"],
      ["POST", "/api/mcp"],
      ["POST", "/api/chats/x/grants/read_file"],
    ] as const) {
      const res = await rawRequest(`${base}${url}`, { method, headers: { Origin: "https://evil.example", "Content-Type": "application/json" }, body: "{}" });
      expect(res.status, `${method} ${url}`).toBe(403);
    }
  });

  test("the app's own origin, and command-line clients, are not refused", async () => {
    const chatId = `sec-same-${Date.now()}`;
    const marker = path.join(state, `${chatId}.marker`);
    const own = await rawRequest(`${base}/api/chat`, {
      method: "POST",
      headers: { Origin: base, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/json" },
      body: touchChat(chatId, marker),
    });
    expect(own.status, own.body.slice(0, 300)).not.toBe(403);
    // The control for the refusals above: admitted, the same request streams and reaches the model,
    // which asks for the command (the shell tool itself then waits for a human's approval).
    expect(own.headers["content-type"]).toContain("text/event-stream");
    expect(own.body).toContain('"toolName":"run_terminal_command"');
    expect(own.body).toContain(marker);
    // Without Origin (curl): the proxy lets it through to the route, which judges the body.
    const cli = await rawRequest(`${base}/api/chat`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    expect(cli.status).not.toBe(403);
    expect(cli.body).not.toMatch(/^Forbidden/);
  });
});

test.describe("response headers", () => {
  test("every HTML page carries the framing and sniffing headers", async () => {
    for (const url of ["/chat", "/tools", "/runs", "/settings", "/docs/plugins", "/no-such-page"]) {
      const res = await rawRequest(`${base}${url}`);
      expect(res.headers["content-type"], url).toContain("text/html");
      expectSecurityHeaders(res.headers);
    }
  });

  test("the API sends no CORS headers, even when asked", async () => {
    const origin = { Origin: "http://evil.example" };
    const responses = [
      await rawRequest(`${base}/api/tools`, { headers: origin }),
      await rawRequest(`${base}/api/chats`, { headers: origin }),
      await rawRequest(`${base}/api/chat`, {
        method: "OPTIONS",
        headers: { ...origin, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type" },
      }),
    ];
    for (const res of responses) {
      expect(Object.keys(res.headers).filter((h) => h.startsWith("access-control-"))).toEqual([]);
      expectSecurityHeaders(res.headers);
    }
  });
});

test("configured secrets never reach pages or API responses", async () => {
  for (const url of ["/api/tools", "/settings", "/tools", "/chat", "/api/chats"]) {
    const res = await rawRequest(`${base}${url}`);
    expect(res.status, url).toBe(200);
    expect(res.body, url).not.toContain(SECRET);
  }
});

test.describe("binding beyond loopback", () => {
  // Each spawns its own server from the suite's build; a second Next server on a 2-core box is slow.
  test.describe.configure({ timeout: 180_000 });

  const env = (port: number, extra: Record<string, string> = {}) => ({
    PORT: String(port),
    DATABASE_URL: `file:${path.join(state, `token-${port}.db`)}`,
    TOOLROOM_CONFIG: path.resolve("e2e/fixtures/toolroom.e2e.yaml"),
    XDG_CONFIG_HOME: path.join(state, "xdg"),
    ...extra,
  });

  test("refuses to start without sign-in", async () => {
    const config = path.join(state, "no-auth.yaml");
    fs.writeFileSync(config, "server:\n  host: 0.0.0.0\nauth:\n  required: false\n");
    const server = new StartedServer({ ...env(await freePort()), TOOLROOM_CONFIG: config });
    const code = await server.exited;
    expect(code).toBe(2);
    expect(server.output).toMatch(/cannot start\. server\.host is 0\.0\.0\.0[^\n]*auth\.required is false/);
  });

  test("with a token: 401 without it, 200 with the bearer token or the cookie from ?token=", async ({ page }) => {
    const port = await freePort();
    // The access token guards one developer's server (sign-in guards a shared one): switched on here.
    const server = new StartedServer(env(port, { TOOLROOM_SERVER__REQUIRETOKEN: "true" }));
    try {
      const [, token] = await server.waitFor(/\/\?token=([A-Za-z0-9_%-]+)/);
      const origin = `http://127.0.0.1:${port}`;
      const secret = decodeURIComponent(token as string);
      // Wait until Next answers at all.
      await expect.poll(async () => (await rawRequest(`${origin}/api/tools`).catch(() => ({ status: 0 }))).status, { timeout: 90_000 }).toBe(401);

      for (const url of ["/tools", "/api/tools", "/api/mcp", "/settings"]) {
        const res = await rawRequest(`${origin}${url}`);
        expect(res.status, url).toBe(401);
        expect(res.body).toMatch(/^Unauthorized: [^\n]+\n?$/);
      }
      expect((await rawRequest(`${origin}/api/tools`, { headers: { Authorization: "Bearer wrong-token" } })).status).toBe(401);
      expect((await rawRequest(`${origin}/tools?token=wrong-token`)).status).toBe(401);
      expect((await rawRequest(`${origin}/api/tools`, { headers: { Authorization: `Bearer ${secret}` } })).status).toBe(200);
      // The host check still applies with the token.
      expect((await rawRequest(`${origin}/api/tools`, { headers: { Host: "evil.example", Authorization: `Bearer ${secret}` } })).status).toBe(403);

      const exchange = await rawRequest(`${origin}/tools?token=${token}&tab=all`);
      expect(exchange.status).toBe(303);
      expect(exchange.headers.location).toBe("/tools?tab=all");
      const cookie = String(exchange.headers["set-cookie"]);
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Strict/);
      const pair = cookie.split(";")[0] as string;
      expect((await rawRequest(`${origin}/tools`, { headers: { Cookie: pair } })).status).toBe(200);
      // The server's own token is a secret like any other.
      const settings = await rawRequest(`${origin}/settings`, { headers: { Cookie: pair } });
      expect(settings.status).toBe(200);
      expect(settings.body).not.toContain(secret);

      // And in a real browser: the printed URL leaves a working session behind, with no token in the address bar.
      await page.goto(`${origin}/tools?token=${token}`);
      await expect(page).toHaveURL(`${origin}/tools`);
      await expect(page.getByRole("heading", { level: 1, name: "Tools" })).toBeVisible();
      const [stored] = await page.context().cookies(origin);
      expect(stored).toMatchObject({ name: `toolroom-token-${port}`, httpOnly: true, sameSite: "Strict" });
    } finally {
      await server.stop();
    }
  });
});
