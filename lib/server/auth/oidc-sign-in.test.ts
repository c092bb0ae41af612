// Sign-in through a real OpenID provider (issue AA): oidc-provider on loopback, Toolroom's auth
// routes behind the request gate on another loopback port, and a cookie-keeping client that goes
// the whole way a browser does — Toolroom's start, the provider's login and consent forms, the
// callback, the session — over real HTTP with real tokens. On a throwaway database (SQLite here,
// PostgreSQL in the storage-pg run).
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInErrorMessage } from "@/components/auth/sign-in-error";
import { startServer, useTempDatabase } from "@/lib/testing/approvals-harness";
import { startFetchFront, type FetchFront } from "@/lib/testing/fetch-front";
import { startOidcIssuer, type OidcIssuer } from "@/lib/testing/oidc-issuer.mjs";
import { TestBrowser } from "@/lib/testing/test-browser";

const dir = useTempDatabase("oidc-sign-in-");
const CLIENT = { clientId: "toolroom-test", clientSecret: "the-right-client-secret" };

let front: FetchFront;
let idp: OidcIssuer;

/** What `next start` would do with a request: the gate of proxy.ts, then the route it names. */
async function serve(request: Request): Promise<Response> {
  const { decide } = await import("@/lib/security/policy");
  const { securityConfig } = await import("@/lib/security/config");
  const { getSettings } = await import("@/lib/settings");
  const gate = decide(request, securityConfig(getSettings()));
  if (gate.action === "deny") return new Response(gate.message, { status: gate.status });
  const path = new URL(request.url).pathname;
  if (path.startsWith("/api/auth/")) {
    const route = await import("@/app/api/auth/[...all]/route");
    return request.method === "POST" ? route.POST(request) : route.GET(request);
  }
  if (path === "/api/chats") return (await import("@/app/api/chats/route")).GET(request);
  return new Response("not served here", { status: 404 });
}

/** Settings from the environment alone, and a better-auth instance built anew from them. */
async function useSettings(env: Record<string, string>): Promise<void> {
  const { setLoadedSettings } = await import("@/lib/settings");
  const { loadSettings } = await import("@/lib/settings/load");
  setLoadedSettings(loadSettings({ files: [], env: { TOOLROOM_AUTH__REQUIRED: "true", TOOLROOM_SOURCEROOT: dir, ...env } }));
  (globalThis as { __toolroomAuth?: unknown }).__toolroomAuth = undefined;
}

const oidcEnv = (overrides: Record<string, string> = {}) => ({
  TOOLROOM_AUTH__OIDC__ISSUER: idp.issuer,
  TOOLROOM_AUTH__OIDC__CLIENTID: CLIENT.clientId,
  TOOLROOM_AUTH__OIDC__CLIENTSECRET: CLIENT.clientSecret,
  TOOLROOM_AUTH__OIDC__NAME: "Test ID",
  ...overrides,
});

beforeAll(async () => {
  front = await startFetchFront(serve);
  // The port the server listens on names its session cookie (Next sets PORT the same way).
  process.env.PORT = String(front.port);
  idp = await startOidcIssuer({ ...CLIENT, redirectUri: `${front.origin}/api/auth/callback/oidc` });
  // The provider says each of these is an admin: Toolroom must not listen.
  idp.accounts.set("mia", { email: "mia@example.com", email_verified: true, name: "Mia", role: "admin" });
  idp.accounts.set("vera", { email: "Vera@Example.com", email_verified: true, name: "Vera", role: "admin" });
  idp.accounts.set("stranger", { email: "stranger@example.com", email_verified: true, name: "Stranger" });
  idp.accounts.set("otto-unverified", { email: "otto@example.com", email_verified: false, name: "Not Otto" });
  idp.accounts.set("newbie", { email: "newbie@example.com", email_verified: true, name: "Newbie", role: "admin" });
  idp.accounts.set("newbie-unverified", { email: "unverified@example.com", email_verified: false });
  await startServer({ TOOLROOM_AUTH__REQUIRED: "true" });
  const { addUser } = await import("./people");
  await addUser({ email: "mia@example.com", role: "member", password: "member password 1" });
  await addUser({ email: "vera@example.com", role: "viewer", password: "viewer password 1" });
  await addUser({ email: "otto@example.com", role: "member", password: "member password 2" });
});

afterAll(async () => {
  await front?.close();
  await idp?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Where the browser is sent after the provider's forms: `next`, or /sign-in with the error. */
async function signInAtProvider(login: string, next = "/chat") {
  const browser = new TestBrowser();
  const signInPage = `${front.origin}/sign-in?next=${encodeURIComponent(next)}`;
  // What the Sign in with … button does (better-auth's client: signIn.social).
  const started = await browser.fetch(`${front.origin}/api/auth/sign-in/social`, {
    from: signInPage,
    json: { provider: "oidc", callbackURL: next, errorCallbackURL: `/sign-in?next=${encodeURIComponent(next)}` },
  });
  expect(started.status, await started.clone().text()).toBe(200);
  const { url } = (await started.json()) as { url: string };
  expect(new URL(url).searchParams.get("code_challenge_method")).toBe("S256");
  expect(new URL(url).searchParams.get("scope")?.split(" ").sort()).toEqual(["email", "openid", "profile"]);
  // The browser follows the provider's redirects and Toolroom's callback, and stops at a page.
  const follow = (to: URL) => to.origin === idp.issuer || (to.origin === front.origin && to.pathname.startsWith("/api/"));
  let page = await browser.navigate(url, { from: signInPage, follow });
  expect(page.text, "the provider's login form").toContain('name="login"');
  page = await browser.submit(page, { login, password: "any password" }, follow);
  expect(page.text, "the provider's consent form").toContain('value="consent"');
  page = await browser.submit(page, {}, follow);
  expect(page.next, `stopped at ${page.url} (${page.status}): ${page.text.slice(0, 300)}`).not.toBeNull();
  return { browser, landed: new URL(page.next!) };
}

const sessionName = () => `toolroom-${front.port}.session_token`;

async function sessionOf(browser: TestBrowser) {
  const response = await browser.fetch(`${front.origin}/api/auth/get-session`, { from: `${front.origin}/chat` });
  return ((await response.json()) as { user?: { email: string; role: string } } | null)?.user ?? null;
}

async function userRow(email: string) {
  const { db } = await import("@/lib/db/client");
  return db().user.findUnique({ where: { email }, include: { accounts: true } });
}

describe("OIDC sign-in for people added with `toolroom users add` (sign-up off, the default)", () => {
  beforeAll(() => useSettings(oidcEnv()));

  it("signs a person in by their verified email, with the role they have here, back to next; the session works on the API", async () => {
    const { browser, landed } = await signInAtProvider("mia", "/chat?id=abc");
    expect(landed.toString()).toBe(`${front.origin}/chat?id=abc`);
    expect(browser.cookiesFor(front.origin).has(sessionName())).toBe(true);
    expect(await sessionOf(browser)).toMatchObject({ email: "mia@example.com", role: "member" });
    const chats = await browser.fetch(`${front.origin}/api/chats`, { from: `${front.origin}/chat` });
    expect(chats.status).toBe(200);
    expect(await chats.json()).toEqual({ chats: [] });
    const mia = await userRow("mia@example.com");
    expect(mia?.role).toBe("member");
    expect(mia?.accounts.map((a) => a.providerId).sort()).toEqual(["credential", "oidc"]);

    // The second time the account is already linked.
    const again = await signInAtProvider("mia", "/tools");
    expect(again.landed.pathname).toBe("/tools");
    expect(await sessionOf(again.browser)).toMatchObject({ email: "mia@example.com", role: "member" });
  });

  it("takes no ID token posted to it directly: a sign-in goes through the provider", async () => {
    const browser = new TestBrowser();
    const posted = await browser.fetch(`${front.origin}/api/auth/sign-in/social`, {
      from: `${front.origin}/sign-in`,
      json: { provider: "oidc", callbackURL: "/chat", idToken: { token: "eyJhbGciOiJSUzI1NiJ9.e30.c2ln" } },
    });
    expect(posted.status).toBe(400);
    expect(await posted.json()).toMatchObject({ code: "id_token_refused" });
    expect(browser.cookiesFor(front.origin).has(sessionName())).toBe(false);
  });

  it("keeps a viewer a viewer, whatever the provider claims, and matches the email whatever its case", async () => {
    const { browser, landed } = await signInAtProvider("vera");
    expect(landed.pathname).toBe("/chat");
    expect(await sessionOf(browser)).toMatchObject({ email: "vera@example.com", role: "viewer" });
  });

  it("refuses an email nobody added, with a clear message on /sign-in and no user made", async () => {
    const { browser, landed } = await signInAtProvider("stranger", "/tools");
    expect(landed.origin).toBe(front.origin);
    expect(landed.pathname).toBe("/sign-in");
    expect(landed.searchParams.get("next")).toBe("/tools");
    expect(landed.searchParams.get("error")).toBe("signup_disabled");
    expect(signInErrorMessage(landed.searchParams.get("error") ?? undefined, "Test ID")).toBe("No Toolroom account for that email; ask an admin to add you.");
    expect(browser.cookiesFor(front.origin).has(sessionName())).toBe(false);
    expect(await userRow("stranger@example.com")).toBeNull();
  });

  it("does not let an email the provider has not verified into the account that has it", async () => {
    const { browser, landed } = await signInAtProvider("otto-unverified");
    expect(landed.pathname).toBe("/sign-in");
    expect(signInErrorMessage(landed.searchParams.get("error") ?? undefined, "Test ID")).toMatch(/^Test ID has not verified that email address/);
    expect(browser.cookiesFor(front.origin).has(sessionName())).toBe(false);
    expect((await userRow("otto@example.com"))?.accounts.map((a) => a.providerId)).toEqual(["credential"]);
  });
});

describe("OIDC sign-up (allowSignUp: true)", () => {
  beforeAll(() => useSettings(oidcEnv({ TOOLROOM_AUTH__OIDC__ALLOWSIGNUP: "true", TOOLROOM_AUTH__OIDC__ROLE: "viewer" })));

  it("makes a newcomer with the setting's role, not the provider's claim, and logs it", async () => {
    const { browser, landed } = await signInAtProvider("newbie", "/runs");
    expect(landed.pathname).toBe("/runs");
    expect(await sessionOf(browser)).toMatchObject({ email: "newbie@example.com", role: "viewer" });
    expect((await userRow("newbie@example.com"))?.role).toBe("viewer");
    expect((await browser.fetch(`${front.origin}/api/chats`, { from: `${front.origin}/runs` })).status).toBe(200);
    const { auditEvents } = await import("./audit");
    const added = (await auditEvents({ user: "newbie@example.com" })).find((e) => e.action === "user.added");
    expect(JSON.parse(added?.detail ?? "{}")).toEqual({ role: "viewer", via: "oidc" });
  });

  it("makes nobody for an email the provider has not verified", async () => {
    const { landed } = await signInAtProvider("newbie-unverified");
    expect(landed.pathname).toBe("/sign-in");
    expect(landed.searchParams.get("error")).toBe("email_not_verified");
    expect(await userRow("unverified@example.com")).toBeNull();
  });
});

describe("a provider set up wrong", () => {
  it("a wrong client secret comes back to /sign-in as a clear error, and the server goes on", async () => {
    await useSettings(oidcEnv({ TOOLROOM_AUTH__OIDC__CLIENTSECRET: "not-the-client-secret" }));
    const { browser, landed } = await signInAtProvider("mia");
    expect(landed.pathname).toBe("/sign-in");
    expect(landed.searchParams.get("error")).toBe("invalid_code");
    expect(signInErrorMessage("invalid_code", "Test ID")).toMatch(/clientId and clientSecret/);
    expect(await sessionOf(browser)).toBeNull();
  });

  it("an issuer that does not answer is a 502 naming it, and password sign-in still works", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await useSettings(oidcEnv({ TOOLROOM_AUTH__OIDC__ISSUER: `http://127.0.0.1:${port}/realms/team` }));

    const browser = new TestBrowser();
    const from = `${front.origin}/sign-in`;
    const started = await browser.fetch(`${front.origin}/api/auth/sign-in/social`, { from, json: { provider: "oidc", callbackURL: "/chat" } });
    expect(started.status).toBe(502);
    expect(await started.json()).toEqual({
      code: "oidc_unavailable",
      error: `Test ID sign-in is unavailable: its issuer did not answer at http://127.0.0.1:${port}/realms/team/.well-known/openid-configuration. Sign in with your password, or try again later.`,
    });
    const password = await browser.fetch(`${front.origin}/api/auth/sign-in/email`, { from, json: { email: "mia@example.com", password: "member password 1" } });
    expect(password.status).toBe(200);
    expect(browser.cookiesFor(front.origin).has(sessionName())).toBe(true);
    expect(await sessionOf(browser)).toMatchObject({ email: "mia@example.com", role: "member" });
  });
});
