import type { Command } from "commander";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { Writable } from "node:stream";
import { mcpServeOptions } from "@/lib/server/mcp/mcp-serve";
import { loadRegistry } from "@/lib/server/runtime/registry";
import { logMcpAudit } from "@/lib/mcp/audit";
import { createMcpServer } from "@/lib/mcp/server";
import { diagnosticReport } from "@/lib/tools/registry-json";
import { cliSettings } from "../context";
import { counted } from "../counted";
import { registerMcpLogin } from "./mcp-login";

export function registerMcp(program: Command): void {
  const mcp = program
    .command("mcp")
    .description("serve every registered tool over MCP on stdin/stdout (for Claude Desktop, Cursor, the MCP Inspector, …)")
    .action(async () => {
      const { settings } = cliSettings(program.opts<{ config?: string }>().config);
      // stdout is the protocol channel: everything else goes to stderr, plugins' prints included.
      const protocol = takeStdout();
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

/**
 * The real stdout, for the protocol alone; from here on, whatever else writes to process.stdout (a
 * plugin's console.log, a library's warning, at import or while a tool runs) goes to stderr, where
 * it cannot break a client's JSON-RPC stream.
 */
function takeStdout(): Writable {
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = process.stderr.write.bind(process.stderr);
  return new Writable({ write: (chunk: Buffer, _encoding, done) => void write(chunk, done) });
}
