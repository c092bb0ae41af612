import type { Command } from "commander";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { mcpServeOptions } from "@/lib/server/mcp/mcp-serve";
import { loadRegistry } from "@/lib/server/runtime/registry";
import { logMcpAudit } from "@/lib/mcp/audit";
import { createMcpServer } from "@/lib/mcp/server";
import { diagnosticReport } from "@/lib/tools/registry-json";
import { cliSettings } from "../context";
import { counted } from "../counted";
import { registerMcpLogin } from "./mcp-login";
import { commandStdout, reserveStdout } from "../stdout";

export function registerMcp(program: Command): void {
  const mcp = program
    .command("mcp")
    .description("serve every registered tool over MCP on stdin/stdout (for Claude Desktop, Cursor, the MCP Inspector, …)")
    .action(async () => {
      const { settings } = cliSettings(program.opts<{ config?: string }>().config);
      // stdout is the protocol channel: everything else goes to stderr, plugins' prints included
      // (main reserves it for every command; this one cannot work without it).
      reserveStdout();
      const protocol = commandStdout();
      const log = (message: string) => process.stderr.write(`${message}\n`);
      const registry = await loadRegistry({ settings, log });
      for (const d of registry.diagnostics) log(`toolroom mcp: ${diagnosticReport(d)}`);
      const server = createMcpServer(mcpServeOptions(registry, settings, logMcpAudit(log), log));
      const transport = new StdioServerTransport(process.stdin, protocol);
      const closed = new Promise<void>((resolve) => {
        transport.onclose = resolve;
        process.stdin.once("end", resolve);
      });
      await server.connect(transport);
      log(`toolroom mcp: serving ${counted(registry.tools.filter((t) => t.enabled).length, "tool")} on stdio`);
      await closed;
      await server.close();
      // The MCP servers Toolroom itself uses (settings mcpServers) stop with it.
      await registry.close?.();
    });
  registerMcpLogin(mcp, program);
}
