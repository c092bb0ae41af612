// Sign-in in a real browser (issue AA): a Toolroom with auth required sends a page to /sign-in and
// back to where the person was going, shows who is signed in, hides what a viewer may not do, and
// signs out. Its own server, on a throwaway SQLite store, with users made by the CLI.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { sessionCookie } from "../lib/server/auth/session-cookie";
import { freePort, rawRequest, StartedServer } from "./pages/security-http";

const state = process.env.E2E_STATE as string;
test.describe.configure({ mode: "serial", timeout: 180_000 });

let server: StartedServer;
let origin: string;
let env: Record<string, string>;

const cli = (args: string[], input?: string) =>
  execFileSync(process.execPath, ["bin/toolroom.mjs", ...args], { env: { ...process.env, ...env }, input, encoding: "utf8" }).trim();

test.beforeAll(async () => {
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  env = {
    PORT: String(port),
    DATABASE_URL: `file:${path.join(state, `sign-in-${port}.db`)}`,
    TOOLROOM_CONFIG: path.resolve("e2e/fixtures/toolroom.e2e.yaml"),
    XDG_CONFIG_HOME: path.join(state, "xdg"),
    TOOLROOM_AUTH__REQUIRED: "true",
  };
  server = new StartedServer(env);
  await expect.poll(async () => (await rawRequest(`${origin}/api/tools`).catch(() => ({ status: 0 }))).status, { timeout: 90_000 }).toBe(401);
  cli(["users", "add", "mia@example.com", "--role", "member", "--password-stdin"], "mia's long password\n");
  cli(["users", "add", "vera@example.com", "--role", "viewer", "--password-stdin"], "vera's long password");
});

test.afterAll(async () => {
  await server?.stop();
});

test("anonymous: pages go to /sign-in?next=…, the API answers 401 JSON, /api/mcp challenges", async () => {
  const page = await rawRequest(`${origin}/tools?tab=all`);
  expect(page.status).toBe(303);
  expect(page.headers.location).toBe("/sign-in?next=%2Ftools%3Ftab%3Dall");
  const api = await rawRequest(`${origin}/api/chats`);
  expect(api.status).toBe(401);
  expect(JSON.parse(api.body)).toMatchObject({ code: "unauthenticated" });
  const mcp = await rawRequest(`${origin}/api/mcp`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
  expect(mcp.status).toBe(401);
  expect(mcp.headers["www-authenticate"]).toMatch(/^Bearer /);
});

test("a member signs in through the page, lands where they were going, chats, and signs out", async ({ page }) => {
  await page.goto(`${origin}/tools`);
  await expect(page).toHaveURL(`${origin}/sign-in?next=%2Ftools`);
  await page.getByLabel("Email").fill("mia@example.com");
  await page.getByLabel("Password").fill("not her password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("sign-in-error")).toHaveText("Wrong email or password.");
  // What was typed stays.
  await expect(page.getByLabel("Email")).toHaveValue("mia@example.com");

  await page.getByLabel("Password").fill("mia's long password");
  await page.getByLabel("Password").press("Enter");
  await expect(page).toHaveURL(`${origin}/tools`);
  await expect(page.getByRole("heading", { level: 1, name: "Tools" })).toBeVisible();
  await expect(page.getByTestId("account-email")).toHaveText("mia@example.com");
  // Named for the port (no auth.url here), so another local Toolroom keeps its own session.
  const [cookie] = (await page.context().cookies(origin)).filter((c) => c.name === sessionCookie(undefined, new URL(origin).port).name);
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", secure: false });

  await page.goto(`${origin}/chat`);
  await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
  await expect(page.getByText(/read chats as a viewer/)).toHaveCount(0);

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.goto(`${origin}/chat`);
  await expect(page).toHaveURL(`${origin}/sign-in?next=%2Fchat`);
});

// One sign-in only: the sign-in form allows an address five tries a minute, and this file signs in five times in all.
test("an owner shares a read-only link: it shows the chat with nothing to act on, until the owner stops sharing", async ({ page, context }) => {
  const signIn = async (who: typeof page, email: string, password: string) => {
    await who.goto(`${origin}/sign-in?next=%2Fchat`);
    await who.getByLabel("Email").fill(email);
    await who.getByLabel("Password").fill(password);
    await who.getByRole("button", { name: "Sign in" }).click();
    await expect(who).toHaveURL(`${origin}/chat`);
  };
  // Twice in full runs on a busy machine the chat page after this sign-in never took the typed
  // text (Send stayed disabled for minutes: the page had not hydrated); what the browser saw is kept
  // for the failure message.
  const seen: string[] = [];
  page.on("pageerror", (error) => seen.push(`page error: ${error.message}`));
  page.on("requestfailed", (request) => seen.push(`request failed: ${request.url()} ${request.failure()?.errorText ?? ""}`));
  page.on("console", (message) => void (message.type() === "error" && seen.push(`console: ${message.text()}`)));
  await signIn(page, "mia@example.com", "mia's long password");
  // Text typed before the page hydrates stays in the box but not in React's state: type until Send takes it.
  await expect(async () => {
    await page.getByRole("textbox", { name: "Message" }).fill("list files in lib");
    await expect(page.getByTestId("composer-send")).toBeEnabled({ timeout: 1000 });
  })
    .toPass({ timeout: 60_000 })
    .catch((error: Error) => {
      throw new Error(`the chat page took no input; the browser saw:\n${seen.join("\n") || "(no error, no failed request)"}\n${error.message}`);
    });
  await page.getByRole("textbox", { name: "Message" }).press("Enter");
  await expect(page).toHaveURL(/\/chat\/[\w-]+$/);
  await page.getByTestId("share-chat").click();
  const toastText = await page.getByText(/^Read-only link: /).textContent();
  const link = /Read-only link: (\S+)/.exec(toastText ?? "")?.[1];
  expect(link).toMatch(new RegExp(`^${origin}/shared/[A-Za-z0-9_-]{24}$`));
  await expect(page.getByTestId("share-chat")).toHaveText("Copy link");

  // route-guards.test.ts shows another member reads it too; here, how the page draws it.
  const viewer = await context.newPage();
  await viewer.goto(link!);
  await expect(viewer.getByTestId("shared-note")).toHaveText("Read-only, shared by mia@example.com");
  await expect(viewer.getByTestId("chat-title")).toHaveText("list files in lib");
  await expect(viewer.getByText("list files in lib", { exact: true }).last()).toBeVisible();
  await expect(viewer.getByRole("textbox", { name: "Message" })).toHaveCount(0);
  for (const theme of ["light", "dark"] as const) {
    await viewer.emulateMedia({ colorScheme: theme });
    await viewer.screenshot({ path: test.info().outputPath(`shared-chat-${theme}.png`) });
  }

  await page.getByTestId("unshare-chat").click();
  await expect(page.getByTestId("share-chat")).toHaveText("Share");
  expect((await viewer.goto(link!))?.status()).toBe(404);
});

test("a viewer reads but is not offered chat or try-it, and the server refuses them anyway", async ({ page }) => {
  await page.goto(`${origin}/sign-in?next=%2Fchat`);
  await page.getByLabel("Email").fill("vera@example.com");
  await page.getByLabel("Password").fill("vera's long password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(`${origin}/chat`);
  await expect(page.getByText(/read chats as a viewer/)).toBeVisible();
  await page.goto(`${origin}/tools/read_file`);
  await expect(page.getByTestId("role-note")).toContainText("you are signed in as a viewer");
  const refused = await page.evaluate(
    async () => (await fetch("/api/chat", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" })).status,
  );
  expect(refused).toBe(403);
});

test("an open redirect is not possible through ?next=", async ({ page }) => {
  await page.goto(`${origin}/sign-in?next=${encodeURIComponent("//evil.example/")}`);
  await page.getByLabel("Email").fill("mia@example.com");
  await page.getByLabel("Password").fill("mia's long password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(`${origin}/chat`);
});
