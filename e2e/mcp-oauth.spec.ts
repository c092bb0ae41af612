import { expect, test, type Locator } from "@playwright/test";
import { startOAuthMcpServer, type OAuthMcpServer } from "../lib/testing/oauth-mcp-server.mjs";
import { ChatPage } from "./pages/chat";
import { startOwnServer, type OwnServer } from "./pages/next-server";
import { OAuthPage } from "./pages/oauth";
import { shotPath } from "./pages/shots";

// A consumed MCP server's elicitation answered in chat (server-everything, prefix ev_, in the e2e
// settings), recorded on the call; and the browser's sign-in to a loopback MCP server behind OAuth
// (the SDK's server-side auth helpers), on a Toolroom server of this spec's own.

/** Opens a tool card's details (a card that ran while shown is open already). */
async function expand(card: Locator) {
  const toggle = card.getByRole("button").first();
  if ((await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
}

test("an elicitation form is answered in chat and the answer shows on the tool card", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.openNew();
  await chat.send("call ev_trigger-elicitation-request {}");
  const dialog = page.getByTestId("elicitation-dialog");
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId("elicitation-field-integer")).toHaveValue("42");
  await expect(page.getByTestId("elicitation-field-name")).toBeFocused();
  await page.keyboard.type("Grace Hopper");
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: shotPath(`chat-elicitation-${scheme}.png`) });
  }
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();
  await chat.waitIdle();
  const card = chat.toolCards("ev_trigger-elicitation-request");
  await expect(card).toHaveAttribute("data-state", "output-available");
  await expand(card);
  await expect(card.getByTestId("call-elicitation")).toHaveAttribute("data-action", "accept");
  await expect(card.getByTestId("call-elicitation-content")).toContainText("Grace Hopper");
  // Recorded on the call, it is still there after a reload.
  await page.reload();
  const stored = chat.toolCards("ev_trigger-elicitation-request");
  await expand(stored);
  await expect(stored.getByTestId("call-elicitation")).toHaveAttribute("data-action", "accept");
});

test.describe("OAuth sign-in in the browser", () => {
  let remote: OAuthMcpServer;
  let own: OwnServer;
  test.beforeAll(async () => {
    remote = await startOAuthMcpServer();
    own = await startOwnServer("mcp-oauth", () => `mcpServers:\n  secured: { url: "${remote.url}", prefix: "secured_" }\n`);
  });
  test.afterAll(async () => {
    await own?.stop();
    await remote?.close();
  });

  test("Sign in follows the authorization redirect back, the server's tools are listed, Sign out revokes", async ({ page }) => {
    const oauth = new OAuthPage(page, own.origin);
    await oauth.goto();
    await expect(oauth.status("secured")).toHaveAttribute("data-state", /signed-out|needs-sign-in/);
    await page.keyboard.press("Tab");
    await oauth.signIn("secured");
    // The authorization server redirects straight back to /oauth/callback, which sends us here.
    await expect(page).toHaveURL(/\/sources\/oauth\?server=secured&signIn=done$/);
    await expect(oauth.status("secured")).toHaveAttribute("data-state", "signed-in");
    const kinds = await oauth.steps("secured").evaluateAll((steps) => steps.map((s) => s.getAttribute("data-kind")));
    expect(kinds).toEqual(
      expect.arrayContaining(["protected-resource-metadata", "authorization-server-metadata", "registration", "authorization", "callback", "token-exchange"]),
    );
    await oauth.steps("secured").and(page.locator('[data-kind="token-exchange"]')).getByRole("button", { name: "Details" }).click();
    await expect(oauth.section("secured")).toContainText("•••• (");
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: shotPath(`oauth-view-${scheme}.png`), fullPage: true });
    }

    const listed = async () =>
      ((await (await page.request.get(`${own.origin}/api/tools`)).json()) as { tools: Record<string, { source_package: string }> }).tools;
    expect((await listed())["secured_whoami"]?.source_package).toBe("mcp:secured");

    await oauth.signOut("secured");
    expect(remote.provider.revoked.length).toBeGreaterThan(0);
    // The sign-out step, then the tools listed again without a token: refused, so "needs sign-in".
    await expect(oauth.steps("secured").and(page.locator('[data-kind="sign-out"]'))).toHaveCount(1);
    await expect(oauth.status("secured")).toHaveAttribute("data-state", "needs-sign-in");
    expect((await listed())["secured_whoami"]).toBeUndefined();
  });
});
