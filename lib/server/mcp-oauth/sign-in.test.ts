import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOAuthMcpServer, type OAuthMcpServer } from "@/lib/testing/oauth-mcp-server.mjs";

// The web sign-in against a loopback MCP server behind OAuth (the SDK's server-side auth helpers):
// start, the browser's redirects (followed by hand here), the callback route's service, the
// recorded steps, the server's tools listed with the token, sign-out with revocation.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-oauth-ui-"));
process.env.DATABASE_URL = `file:${path.join(dir, "test.db")}`;
process.env.XDG_STATE_HOME = path.join(dir, "state");
const ORIGIN = "http://127.0.0.1:3999";

let remote: OAuthMcpServer;
let service: typeof import("./sign-in");

beforeAll(async () => {
  execFileSync(process.execPath, ["scripts/migrate.mjs", "deploy"], { env: process.env, stdio: "pipe" });
  remote = await startOAuthMcpServer();
  const { setLoadedSettings } = await import("@/lib/settings");
  const { loadSettings } = await import("@/lib/settings/load");
  const mcpServers = { remote: { url: remote.url, prefix: "remote_" } };
  setLoadedSettings(loadSettings({ files: [], env: { TOOLROOM_SOURCEROOT: dir, TOOLROOM_MCPSERVERS: JSON.stringify(mcpServers) } }));
  service = await import("./sign-in");
}, 60_000);

afterAll(async () => {
  const { getRegistry } = await import("@/lib/server/runtime/registry");
  await (await getRegistry()).close?.();
  await remote.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** What a browser does with the authorization page: follow its redirect to our callback. */
async function authorize(url: string): Promise<URL> {
  const response = await fetch(url, { redirect: "manual" });
  expect(response.status).toBe(302);
  return new URL(response.headers.get("location") ?? "");
}

describe("OAuth sign-in from the UI", () => {
  it("a forged or replayed callback is refused", async () => {
    await expect(service.finishSignIn(new URLSearchParams({ code: "x", state: "not-ours" }))).rejects.toMatchObject({ status: 400 });
  });

  it("signs in, lists the server's tools with the token, records each step masked, and signs out", async () => {
    expect((await service.oauthStatus("remote")).state).toBe("signed-out");
    const started = await service.startSignIn("remote", ORIGIN, "/sources/oauth");
    expect(started.authorized).toBe(false);
    const authorizationUrl = new URL(started.authorizationUrl ?? "");
    expect(authorizationUrl.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorizationUrl.searchParams.get("redirect_uri")).toBe(`${ORIGIN}/oauth/callback`);
    expect(authorizationUrl.searchParams.get("resource")).toBe(remote.url);

    const callback = await authorize(authorizationUrl.href);
    expect(callback.pathname).toBe("/oauth/callback");
    expect(await service.finishSignIn(callback.searchParams)).toBe("/sources/oauth?server=remote&signIn=done");
    // The same state twice: the flow is spent.
    await expect(service.finishSignIn(callback.searchParams)).rejects.toMatchObject({ status: 400 });

    const status = await service.oauthStatus("remote");
    expect(status).toMatchObject({ state: "signed-in", scope: "mcp:tools", refreshable: true });
    const kinds = status.steps.map((s) => s.kind);
    for (const kind of [
      "mcp-request",
      "protected-resource-metadata",
      "authorization-server-metadata",
      "registration",
      "authorization",
      "callback",
      "token-exchange",
    ])
      expect(kinds).toContain(kind);
    expect(status.steps.find((s) => s.kind === "mcp-request")?.wwwAuthenticate).toContain("resource_metadata=");
    // No secret in the log: not the token, not the code, not the verifier.
    const { readMcpOAuth } = await import("@/lib/db/mcp-oauth");
    const stored = await readMcpOAuth("remote", remote.url);
    const tokens = stored?.tokens as { access_token: string; refresh_token: string };
    const log = JSON.stringify(status.steps);
    for (const secret of [tokens.access_token, tokens.refresh_token, callback.searchParams.get("code") ?? "?", callback.searchParams.get("state") ?? "?"])
      expect(log).not.toContain(secret);
    expect(JSON.stringify(status)).not.toContain(tokens.access_token);

    const { getRegistry } = await import("@/lib/server/runtime/registry");
    expect((await getRegistry()).get("remote_whoami")?.sourcePackage).toBe("mcp:remote");

    // The access token expires: the next connection (a reload, a restart) refreshes it, as a person
    // who signed in once expects, instead of asking to sign in again.
    remote.provider.expireAccessTokens();
    const { reloadRegistryNow } = await import("@/lib/server/runtime/server-reload");
    await reloadRegistryNow(["the access token expired"], "remote", "the access token expired");
    expect((await getRegistry()).get("remote_whoami")?.sourcePackage).toBe("mcp:remote");
    const refreshed = (await readMcpOAuth("remote", remote.url))?.tokens as { access_token: string; refresh_token: string };
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(refreshed.refresh_token).toBe(tokens.refresh_token);

    expect(await service.signOut("remote")).toEqual({ revokedAtServer: true });
    expect(remote.provider.revoked).toEqual(expect.arrayContaining([refreshed.access_token, tokens.refresh_token]));
    const after = await service.oauthStatus("remote");
    expect(after.state).toBe("needs-sign-in");
    expect(after.steps.map((s) => s.kind)).toContain("sign-out");
    expect((await getRegistry()).get("remote_whoami")).toBeUndefined();
  }, 60_000);

  it("returns to the page it came from without repeating its server or an earlier outcome", async () => {
    const started = await service.startSignIn("remote", ORIGIN, "/sources?server=remote&signIn=refused");
    const callback = await authorize(started.authorizationUrl ?? "");
    expect(await service.finishSignIn(callback.searchParams)).toBe("/sources?server=remote&signIn=done");
    await service.signOut("remote");
  }, 60_000);
});
