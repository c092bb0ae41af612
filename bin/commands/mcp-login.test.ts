import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runToolroom } from "@/lib/testing/cli";
import { startOAuthMcpServer, type OAuthMcpServer } from "@/lib/testing/oauth-mcp-server.mjs";

// The sign-in's steps are exercised by the conformance suite's auth scenarios (e2e/mcp-client-conformance.spec.ts).
let root: string;
let remote: OAuthMcpServer;
beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-mcp-login-"));
  remote = await startOAuthMcpServer();
  fs.writeFileSync(path.join(root, "toolroom.yaml"), `mcpServers:\n  local: { command: node, args: [server.js] }\n  remote: { url: "${remote.url}" }\n`);
  // The tokens are kept in the database, as for the web app.
  execFileSync(process.execPath, ["scripts/migrate.mjs", "deploy"], { env: { ...process.env, DATABASE_URL: database() }, stdio: "pipe" });
  // The "browser": follows the authorization page's redirect back to the CLI's loopback callback.
  fs.writeFileSync(path.join(root, "browser.mjs"), "await fetch(process.argv[2]);\n");
});
const database = () => `file:${path.join(root, "test.db")}`;
afterAll(async () => {
  await remote.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe("toolroom mcp login / logout", () => {
  it("names the configured servers when the server is unknown, and refuses a stdio server", async () => {
    const unknown = await runToolroom(["--config", "toolroom.yaml", "mcp", "login", "nowhere"], root);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no MCP server named "nowhere" in settings mcpServers (local, remote)');
    const stdio = await runToolroom(["--config", "toolroom.yaml", "mcp", "logout", "local"], root);
    expect(stdio.code).toBe(2);
    expect(stdio.stderr).toContain("mcpServers.local runs on stdio; only servers reached by URL sign in");
  }, 60_000);

  it("logout revokes the tokens at the authorization server (RFC 7009), as the web Sign out does, and says so", async () => {
    const env = { DATABASE_URL: database() };
    const login = await runToolroom(["--config", "toolroom.yaml", "mcp", "login", "remote"], root, {
      ...env,
      BROWSER: `${process.execPath} ${path.join(root, "browser.mjs")}`,
    });
    // The loopback server has one tool, whoami.
    expect(login.stdout, login.stderr).toBe(`Signed in to remote (${remote.url}): 1 tool.\n`);
    expect(remote.provider.revoked).toEqual([]);
    const logout = await runToolroom(["--config", "toolroom.yaml", "mcp", "logout", "remote"], root, env);
    expect(logout.code).toBe(0);
    expect(logout.stdout).toContain("Signed out of remote: the authorization server revoked the tokens.");
    // The access token and the refresh token.
    expect(remote.provider.revoked).toHaveLength(2);
    const again = await runToolroom(["--config", "toolroom.yaml", "mcp", "logout", "remote"], root, env);
    expect(again.stdout).toContain("Nothing was stored for remote.");
  }, 60_000);

  it("a client registered beforehand (oauth.clientId and clientSecret in settings) signs in without dynamic registration", async () => {
    const client = { client_id: "toolroom-pre", client_secret: "pre-secret-0123" };
    const pre = await startOAuthMcpServer({ preRegistered: client });
    try {
      fs.writeFileSync(
        path.join(root, "pre.yaml"),
        `mcpServers:\n  pre: { url: "${pre.url}", confirm: never, oauth: { clientId: ${client.client_id}, clientSecret: ${client.client_secret} } }\n`,
      );
      const env = { DATABASE_URL: database(), BROWSER: `${process.execPath} ${path.join(root, "browser.mjs")}` };
      const login = await runToolroom(["--config", "pre.yaml", "mcp", "login", "pre"], root, env);
      expect(login.stdout, login.stderr).toBe(`Signed in to pre (${pre.url}): 1 tool.\n`);
      // The authorization server has no registration endpoint: only the pre-registered client exists, and it authorized.
      expect([...pre.provider.clients.keys()]).toEqual([client.client_id]);
      expect(pre.provider.authorizations.map((a) => a.clientId)).toEqual([client.client_id]);
      // The token was issued to it: the tool says who called.
      const call = await runToolroom(["--config", "pre.yaml", "call", "whoami"], root, env);
      expect(call.stdout, call.stderr).toBe(`signed in as ${client.client_id}\n`);
    } finally {
      await pre.close();
    }
  }, 60_000);
});
