import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runToolroom } from "@/lib/testing/cli";
import { startOAuthMcpServer, type OAuthMcpServer } from "@/lib/testing/oauth-mcp-server.mjs";

// Step-up (MCP authorization, scope selection) through `toolroom call`, against a loopback server
// whose publish tool needs a scope the first sign-in did not ask for. The conformance suite's
// auth/scope-step-up checks the same from the authorization server's side.
let root: string;
let remote: OAuthMcpServer;
beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-step-up-"));
  remote = await startOAuthMcpServer({ stepUpScope: "mcp:publish" });
  fs.writeFileSync(path.join(root, "toolroom.yaml"), `mcpServers:\n  remote: { url: "${remote.url}", prefix: remote_, confirm: never }\n`);
  execFileSync(process.execPath, ["scripts/migrate.mjs", "deploy"], { env: { ...process.env, DATABASE_URL: database() }, stdio: "pipe" });
  // The "browser": follows the authorization page's redirect back to the CLI's loopback callback.
  fs.writeFileSync(path.join(root, "browser.mjs"), "await fetch(process.argv[2]);\n");
});
const database = () => `file:${path.join(root, "test.db")}`;
afterAll(async () => {
  await remote.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe("toolroom call: step-up on 403 insufficient_scope", () => {
  it("signs in again for the union of the granted scopes and the challenge's, then runs the call once more", async () => {
    const env = { DATABASE_URL: database(), BROWSER: `${process.execPath} ${path.join(root, "browser.mjs")}` };
    const login = await runToolroom(["--config", "toolroom.yaml", "mcp", "login", "remote"], root, env);
    expect(login.stdout, login.stderr).toBe(`Signed in to remote (${remote.url}): 2 tools.\n`);
    // The first sign-in asks for what the protected-resource metadata lists.
    expect(remote.provider.authorizations.map((a) => a.scopes)).toEqual([["mcp:tools"]]);

    const call = await runToolroom(["--config", "toolroom.yaml", "call", "remote_publish"], root, env);
    expect(call.stderr).toContain('toolroom: remote needs more access for this call (scope "mcp:tools mcp:publish"): signing in again.');
    expect(call.stdout, call.stderr).toBe("published with mcp:tools mcp:publish\n");
    expect(call.code).toBe(0);
    // One more authorization, for the larger scope.
    expect(remote.provider.authorizations).toHaveLength(2);
    expect(remote.provider.authorizations[1]?.scopes.toSorted()).toEqual(["mcp:publish", "mcp:tools"]);
  }, 90_000);

  it("with nobody to sign in (no $BROWSER, no terminal), the refused call fails and says why", async () => {
    // Signed in anew, with the small scope only.
    const env = { DATABASE_URL: database(), BROWSER: `${process.execPath} ${path.join(root, "browser.mjs")}` };
    await runToolroom(["--config", "toolroom.yaml", "mcp", "logout", "remote"], root, env);
    const login = await runToolroom(["--config", "toolroom.yaml", "mcp", "login", "remote"], root, env);
    expect(login.code, login.stderr).toBe(0);
    const before = remote.provider.authorizations.length;
    const call = await runToolroom(["--config", "toolroom.yaml", "call", "remote_publish"], root, { DATABASE_URL: database(), BROWSER: "" });
    expect(call.code).toBe(1);
    expect(call.stdout).toContain("403");
    expect(call.stderr).toContain('toolroom: remote needs more access for this call (scope "mcp:tools mcp:publish"); nobody is here to sign in again');
    expect(remote.provider.authorizations).toHaveLength(before);
  }, 90_000);
});
