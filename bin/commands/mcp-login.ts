import { spawn } from "node:child_process";
import type { Command } from "commander";
import { deleteMcpOAuth, readMcpOAuth } from "@/lib/db/mcp-oauth";
import type { OAuthFlowStep } from "@/lib/mcp/oauth-flow-log";
import { isStdio } from "@/lib/mcp/client-connect";
import { toolroomPackage } from "@/lib/server/tools-page/package-info";
import { loginMcpServer, revokeMcpTokens } from "@/lib/mcp/oauth-login";
import type { Settings } from "@/lib/settings/schema";
import { CliExit, cliSettings } from "../context";
import { counted } from "../counted";
import { out } from "../stdout";

/** `toolroom mcp login|logout <server>`: OAuth for a remote server of `mcpServers`. */
export function registerMcpLogin(mcp: Command, program: Command): void {
  mcp
    .command("login <server>")
    .description("sign in to a remote MCP server (OAuth): opens the authorization page with $BROWSER, else prints it")
    .action(async (server: string) => {
      const config = httpServer(cliSettings(program.opts<{ config?: string }>().config).settings, server);
      try {
        const { toolCount } = await loginMcpServer(server, config, { clientVersion: toolroomPackage().version, open: openInBrowser });
        out(`Signed in to ${server} (${config.url}): ${counted(toolCount, "tool")}.\n`);
      } catch (error) {
        throw new CliExit(1, `toolroom: signing in to ${server} failed: ${(error as Error).message}`);
      }
    });
  mcp
    .command("logout <server>")
    .description("revoke the tokens at the authorization server (when it offers revocation), then forget them and the client registration")
    .action(async (server: string) => {
      const config = httpServer(cliSettings(program.opts<{ config?: string }>().config).settings, server);
      // As the web's Sign out: a token only forgotten here would still open the server to whoever holds a copy.
      const revoked = await revokeMcpTokens(server, config);
      const removed = await deleteMcpOAuth(server);
      if (!removed) out(`Nothing was stored for ${server}.\n`);
      else if (revoked) out(`Signed out of ${server}: the authorization server revoked the tokens.\n`);
      else out(`Signed out of ${server}: the tokens are forgotten here, not revoked (the authorization server offers no revocation, or refused).\n`);
    });
}

function httpServer(settings: Settings, server: string) {
  const config = settings.mcpServers[server];
  if (!config)
    throw new CliExit(
      2,
      `toolroom: no MCP server named "${server}" in settings mcpServers (${Object.keys(settings.mcpServers).join(", ") || "none configured"}).`,
    );
  if (isStdio(config)) throw new CliExit(2, `toolroom: mcpServers.${server} runs on stdio; only servers reached by URL sign in.`);
  return config;
}

/** $BROWSER is a command (it may carry arguments); the URL goes last. Without it, the person opens the URL. */
function openInBrowser(url: URL): Promise<void> {
  const browser = process.env.BROWSER?.trim();
  process.stderr.write(`Open this page to sign in:\n  ${url.href}\n`);
  if (!browser) return Promise.resolve();
  const [command, ...args] = browser.split(/\s+/);
  const child = spawn(command!, [...args, url.href], { stdio: ["ignore", "ignore", "inherit"], detached: false });
  return new Promise((resolve) => {
    child.on("error", (error) => {
      process.stderr.write(`toolroom: could not start $BROWSER (${error.message}); open the page by hand.\n`);
      resolve();
    });
    child.on("spawn", () => resolve());
  });
}

/**
 * Step-up (MCP authorization, scope selection): a call the server refused with 403
 * insufficient_scope since `since` signs in again for the scope its challenge named, when there
 * is a way to reach a person ($BROWSER, or a terminal to print the page on), else says so. True when it did.
 */
export async function stepUpAfterRefusal(settings: Settings, sourcePackage: string, since: Date): Promise<boolean> {
  const server = sourcePackage.startsWith("mcp:") ? sourcePackage.slice(4) : undefined;
  const config = server ? settings.mcpServers[server] : undefined;
  if (!server || !config || isStdio(config)) return false;
  const steps = ((await readMcpOAuth(server, config.url).catch(() => null))?.flowLog as OAuthFlowStep[] | undefined) ?? [];
  const refusal = steps.findLast((s) => s.kind === "mcp-request" && s.status === 403 && Date.parse(s.at) >= since.getTime() - 1000);
  const scope =
    refusal?.wwwAuthenticate && /insufficient_scope/.test(refusal.wwwAuthenticate) ? /scope="([^"]*)"/.exec(refusal.wwwAuthenticate)?.[1] : undefined;
  if (!scope) return false;
  // A script: the SDK's error ("403 after trying upscoping") alone does not say what to do.
  if (!(process.env.BROWSER?.trim() || process.stdin.isTTY)) {
    process.stderr.write(
      `toolroom: ${server} needs more access for this call (scope "${scope}"); nobody is here to sign in again: run the call on a terminal or with $BROWSER set.\n`,
    );
    return false;
  }
  process.stderr.write(`toolroom: ${server} needs more access for this call (scope "${scope}"): signing in again.\n`);
  await loginMcpServer(server, config, { clientVersion: toolroomPackage().version, open: openInBrowser, scope });
  return true;
}
