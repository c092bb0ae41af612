import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { loadRegistry } from "@/lib/server/runtime/registry";
import { chromiumPath } from "@/lib/server/runtime/chromium";
import { databaseFileProblem } from "@/lib/db/health";
import { migrationStatus } from "@/lib/db/migrations-status";
import { databaseFile, databaseUrl } from "@/lib/db/url";
import { isStdio } from "@/lib/mcp/client-connect";
import { securityConfig, startupProblem } from "@/lib/security/config";
import { loadSettings } from "@/lib/settings/load";
import type { Registry } from "@/lib/tools/registry-types";
import { CliExit } from "../context";
import { counted } from "../counted";
import { modelKeysCheck, skippedEntriesCheck, type Warning } from "./doctor-plugins";
import { outLine } from "../stdout";
import { installed } from "../store";

/** What a person runs to create or migrate the database: doctor itself changes nothing. */
const SET_UP = "npm start, or any toolroom command that uses it (tools, call, ask, eval, mcp), applies them";

interface Check {
  name: string;
  run(): Promise<string | Warning> | string | Warning;
}

/** A check that found something worth knowing that does not stop Toolroom: printed as `warn`, not counted as failed. */
class CheckWarning extends Error {}
/** A state that is expected (a fresh install): printed as `note`, neither a warning nor a failure. */
class CheckNote extends Error {}

/** Chromium runs the e2e tests only: the app, the CLI and the unit tests work without it. */
export function chromiumCheck(found: string | null): { ok: true; text: string } | { ok: false; warning: string } {
  if (found) return { ok: true, text: found };
  return { ok: false, warning: "not found; only the e2e tests need it (npm test): apt-get install chromium-headless-shell, or set CHROMIUM_PATH" };
}

export function registerDoctor(program: Command): void {
  program
    .command("doctor")
    .description("check Node, the database, Chromium for tests, settings, the server's exposure and the tool registry")
    .action(async () => {
      const configPath = program.opts<{ config?: string }>().config;
      const file = databaseFile(databaseUrl());
      const status = migrationStatus(file, installed().migrations);
      // Servers reached by URL keep their sign-in state in the database: before it is set up,
      // connecting to one would create the file (doctor changes nothing), so they wait for it.
      const storeReady = status.reachable && status.pending.length === 0;
      const unchecked: string[] = [];
      // Read once for the registry and plugins checks; MCP servers are stopped as soon as it is built.
      let registryOnce: Promise<Registry> | undefined;
      const loadRegistryOnce = async () => {
        const { settings } = loadSettings({ configPath });
        const mcpServers = storeReady ? settings.mcpServers : Object.fromEntries(Object.entries(settings.mcpServers).filter(([, c]) => isStdio(c)));
        unchecked.push(...Object.keys(settings.mcpServers).filter((name) => !(name in mcpServers)));
        const registry = await loadRegistry({ settings: { ...settings, mcpServers }, log: () => {} });
        await registry.close?.();
        return registry;
      };
      const loadedRegistry = () => (registryOnce ??= loadRegistryOnce());
      const checks: Check[] = [
        {
          name: "node",
          run: () => {
            const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
            if (major < 22 || (major === 22 && minor < 12)) {
              throw new Error(
                `Node ${process.versions.node}; Toolroom needs 22.12 or newer (ai 7, Prisma 7 and vite 8 declare it). ` +
                  "Run Toolroom through npm (npm start, npm test, npx toolroom), which brings Node 22 from the npm registry, or install Node 22.",
              );
            }
            return `Node ${process.versions.node}`;
          },
        },
        {
          name: "settings",
          run: () => {
            const loaded = loadSettings({ configPath });
            return loaded.sources.length ? `valid (${loaded.sources.join(", ")})` : "valid (defaults only)";
          },
        },
        {
          name: "database",
          run: () => {
            const problem = databaseFileProblem(file);
            if (problem) throw new Error(problem);
            // A fresh install: the first command that uses the database creates it.
            if (!fs.existsSync(file)) throw new CheckNote(`${file} not created yet; ${SET_UP.replace("applies them", "creates it")}`);
            if (!status.reachable) throw new Error(status.error ?? "unreachable");
            if (status.pending.length)
              throw new Error(`${file}: ${counted(status.pending.length, "migration")} not applied (${status.pending.join(", ")}); ${SET_UP}`);
            return `${file}, ${counted(status.applied.length, "migration")} applied`;
          },
        },
        {
          name: "server",
          run: () => {
            const security = securityConfig(loadSettings({ configPath }).settings);
            const problem = startupProblem(security);
            if (problem) throw new Error(problem);
            const where = security.loopback ? "loopback only" : "reachable from the network";
            const token = security.tokenRequired ? (security.token ? "token required (server.token)" : "token required (generated at start)") : "no token";
            const hosts = ["localhost", "127.0.0.1", "[::1]", ...security.allowedHosts].join(", ");
            return `binds ${security.bindHost} (${where}), ${token}, allowed hosts: ${hosts}`;
          },
        },
        {
          name: "chromium",
          run: () => {
            const check = chromiumCheck(chromiumPath());
            if (!check.ok) throw new CheckWarning(check.warning);
            return check.text;
          },
        },
        {
          name: "registry",
          run: async () => {
            const registry = await loadedRegistry();
            const failedServers = registry.diagnostics.filter((d) => d.kind === "source-failed").length;
            const skippedEntries = registry.diagnostics.length - failedServers;
            const notes = [
              skippedEntries ? `${counted(skippedEntries, "tool entry", "tool entries")} skipped` : "",
              failedServers ? `${counted(failedServers, "MCP server")} failed` : "",
            ].filter(Boolean);
            if (unchecked.length) notes.push(`${counted(unchecked.length, "MCP server")} by URL not checked before the database is set up`);
            return `${counted(registry.tools.length, "tool")}${notes.length ? `, ${notes.join(", ")} (see toolroom tools)` : ""}`;
          },
        },
        {
          name: "plugins",
          run: async () => skippedEntriesCheck(await loadedRegistry()),
        },
        { name: "models", run: () => modelKeysCheck(loadSettings({ configPath }).settings) },
      ];
      let failed = 0;
      for (const check of checks) {
        try {
          const result = await check.run();
          if (typeof result === "string") outLine(`ok    ${check.name.padEnd(9)} ${result}`);
          else outLine([`warn  ${check.name.padEnd(9)} ${result.warning}`, ...result.details.map((d) => d.replace(/^/gm, "        "))].join("\n"));
        } catch (error) {
          if (error instanceof CheckNote) {
            outLine(`note  ${check.name.padEnd(9)} ${error.message}`);
            continue;
          }
          if (error instanceof CheckWarning) {
            outLine(`warn  ${check.name.padEnd(9)} ${error.message}`);
            continue;
          }
          failed++;
          outLine(`FAIL  ${check.name.padEnd(9)} ${(error as Error).message.split("\n")[0]}`);
        }
      }
      if (failed) throw new CliExit(1, `toolroom doctor: ${counted(failed, "check")} failed`);
      if (!fs.existsSync(path.join(process.env.NEXT_DIST_DIR ?? ".next", "BUILD_ID"))) outLine("note  build     not built yet; npm start builds it");
    });
}
