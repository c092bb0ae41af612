import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { describeDatabase } from "@/lib/db/url";
import { findInstallDir } from "@/lib/settings/install-dir";
import { serverNodeFlags, withTelemetryOff } from "../../scripts/next-env.mjs";
import { preflight } from "../../scripts/preflight";
import { servingLines, stopWithServer } from "../../scripts/serving.mjs";
import { CliExit, cliSettings } from "../context";
import { prepareStore } from "../store";

type Pack = { links: { path: string; target: string }[] };

/** npm packs no symbolic links: the server's names for its external packages are made again (scripts/pack.mjs lists them). */
function restoreLinks(app: string, pack: Pack): void {
  for (const link of pack.links) {
    const at = path.join(app, link.path);
    // lstat: the link itself, made by an earlier start (existsSync would follow it).
    if (fs.lstatSync(at, { throwIfNoEntry: false })) continue;
    try {
      fs.mkdirSync(path.dirname(at), { recursive: true });
      fs.symlinkSync(link.target, at);
    } catch (error) {
      throw new CliExit(
        1,
        `toolroom serve: cannot finish setting up the package in ${app} (${(error as Error).message}); install it in a folder you can write.`,
      );
    }
  }
}

/**
 * `toolroom serve` (and `npx toolroom` alone): the npm package's prebuilt server, with the folder it
 * starts in as the source root. Starting it there is the person saying the folder is theirs, so
 * its ./toolroom.yaml is read as if named with --config (elsewhere the CLI ignores it, docs/security.md).
 */
export function registerServe(program: Command): void {
  const app = findInstallDir();
  const packFile = app && path.join(app, "pack.json");
  const packaged = !!packFile && fs.existsSync(packFile);
  program
    // In a clone, `toolroom` alone prints the help, as before.
    .command("serve", { isDefault: packaged })
    .description("serve the app from the npm package, with this folder as the source root (`npx toolroom` alone does this)")
    .option("--port <n>", "port to listen on (default: $PORT, else 3000)")
    .option("--host <address>", "address to listen on (default: $HOST, else server.host: 127.0.0.1)")
    .action(async (options: { port?: string; host?: string }) => {
      if (!app || !packFile || !packaged)
        throw new CliExit(
          2,
          "toolroom serve: this Toolroom has no prebuilt server; serve runs the one the npm package ships (`npm pack` makes it). In a clone, `npm start` builds and serves.",
        );
      if (options.port !== undefined && (!/^\d{1,5}$/.test(options.port) || Number(options.port) > 65535))
        throw new CliExit(2, `toolroom serve: --port must be a port number from 0 to 65535 (got ${options.port}).`);
      const own = path.resolve("toolroom.yaml");
      const config = program.opts<{ config?: string }>().config ?? (fs.existsSync(own) ? own : undefined);
      // The server process reads the same layers: --config reaches it as TOOLROOM_CONFIG.
      if (config) process.env.TOOLROOM_CONFIG = path.resolve(config);
      if (options.port !== undefined) process.env.PORT = options.port;
      if (options.host !== undefined) process.env.HOST = options.host;
      // The package's database is in the data folder unless the settings or DATABASE_URL name one.
      cliSettings(config);
      const { host, port, token } = await preflight();
      await prepareStore();
      restoreLinks(app, JSON.parse(fs.readFileSync(packFile, "utf8")) as Pack);
      console.log(`toolroom: source root ${process.cwd()}${config ? `, settings ${config}` : ""}; ${describeDatabase()}`);
      for (const line of servingLines({ host, port, token })) console.log(line);
      // Next's standalone server reads PORT and HOSTNAME; Toolroom's settings read HOST and the token.
      const env = { ...withTelemetryOff(process.env), PORT: String(port), HOSTNAME: host, HOST: host, ...(token ? { TOOLROOM_SERVER__TOKEN: token } : {}) };
      const server = spawn(process.execPath, [...serverNodeFlags(), path.join(app, "server.js")], { stdio: "inherit", env });
      stopWithServer(server);
      await new Promise(() => {});
    });
}
