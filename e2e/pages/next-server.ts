// The built app served by `next start` itself (no start.mjs in between), so a test can kill the
// very process that runs the tools, and start another one on the same database; and the
// throwaway state (settings, database) of a spec that runs a server of its own.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { nextStartArgs, withTelemetryOff } from "../../scripts/next-env.mjs";
import { freePort, rawRequest } from "./security-http";

const STOP_GRACE_MS = 5000;

export class NextServer {
  output = "";
  readonly exited: Promise<number | null>;
  private exitCode: number | null | undefined;
  private readonly child: ChildProcess;

  /** `cwd`: the checkout to serve (its working folder, where relative settings lead); else this one. */
  constructor(
    readonly port: number,
    env: Record<string, string>,
    cwd?: string,
  ) {
    // Only the test's settings: no TOOLROOM_* variable of the developer's.
    const childEnv: NodeJS.ProcessEnv = withTelemetryOff({ ...process.env, ...env });
    for (const name of Object.keys(childEnv)) if (name.startsWith("TOOLROOM_") && !(name in env)) delete childEnv[name];
    this.child = spawn(process.execPath, nextStartArgs(cwd ?? process.cwd(), "-H", "127.0.0.1", "-p", String(port)), {
      cwd,
      env: childEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const collect = (chunk: Buffer) => (this.output += chunk.toString());
    this.child.stdout?.on("data", collect);
    this.child.stderr?.on("data", collect);
    this.exited = new Promise((resolve) => this.child.on("exit", (code) => resolve((this.exitCode = code))));
  }

  get pid(): number {
    if (this.child.pid === undefined) throw new Error("next start did not start");
    return this.child.pid;
  }

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Resolves once `probe` (the tools API) answers 200; rejects when the process ends first. */
  async ready(timeoutMs = 90_000, probe = "/api/tools"): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (this.exitCode !== undefined) throw new Error(`next start exited (${this.exitCode}):\n${this.output}`);
      const status = await rawRequest(`${this.origin}${probe}`).then(
        (r) => r.status,
        () => 0,
      );
      if (status === 200) return;
      if (Date.now() > deadline) throw new Error(`next start did not answer in ${timeoutMs} ms:\n${this.output}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  /**
   * Stops the server. `next start` closes gracefully, waiting for open connections, and the spec's
   * page keeps one busy until its fixture closes (after the spec's own cleanup): so, as
   * scripts/start.mjs does, a stop that has not ended after a grace period becomes SIGKILL.
   */
  async kill(signal: NodeJS.Signals): Promise<void> {
    if (this.exitCode !== undefined) return;
    this.child.kill(signal);
    const grace = signal === "SIGKILL" ? undefined : setTimeout(() => this.child.kill("SIGKILL"), STOP_GRACE_MS);
    await this.exited;
    clearTimeout(grace);
  }
}

/** A spec's own state: a temp folder holding its settings file and a migrated database. */
export interface OwnState {
  dir: string;
  /** The settings file (TOOLROOM_CONFIG), which a spec may rewrite while its server runs. */
  config: string;
  /** What a NextServer on this state needs. */
  env: Record<string, string>;
  remove(): void;
}

/**
 * A fresh `toolroom-<name>-*` temp folder: `setup` writes what the spec needs into it and returns
 * the settings (toolroom.yaml) text; then the database is migrated as `npm start` does it.
 */
export function ownState(name: string, setup: (dir: string) => string): OwnState {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `toolroom-${name}-`));
  const remove = () => fs.rmSync(dir, { recursive: true, force: true });
  try {
    const config = path.join(dir, "toolroom.yaml");
    fs.writeFileSync(config, setup(dir));
    const env = {
      DATABASE_URL: `file:${path.join(dir, "toolroom.db")}`,
      TOOLROOM_CONFIG: config,
      XDG_CONFIG_HOME: path.join(dir, "xdg"),
      XDG_STATE_HOME: path.join(dir, "xdg-state"),
    };
    const migrate = spawnSync(process.execPath, ["scripts/migrate.mjs", "deploy"], { env: { ...process.env, ...env }, encoding: "utf8" });
    if (migrate.status !== 0) throw new Error(`scripts/migrate.mjs deploy exited ${migrate.status}:\n${migrate.stderr}`);
    return { dir, config, env, remove };
  } catch (error) {
    remove();
    throw error;
  }
}

/** A spec's own server: `next start` on its own state, on a free port, answering. */
export interface OwnServer extends OwnState {
  server: NextServer;
  origin: string;
  /** Ends the server and removes the state. */
  stop(): Promise<void>;
}

export interface OwnServerOptions {
  /**
   * Top-level entries of this checkout the server must not see (./runs, say): it then serves from a
   * stand-in for the checkout inside the state folder, which links to every other entry.
   */
  hide?: string[];
  /** The path whose 200 means the server is up (default /api/tools, which waits for the registry). */
  readyProbe?: string;
}

/**
 * A folder of links to each top-level entry of this checkout but `hide`. Next must run from the
 * project folder (it resolves next.config.ts's imports against the working folder), and the
 * settings resolve relative paths against it too: this is a checkout without those entries.
 */
function checkoutWithout(dir: string, hide: string[]): string {
  fs.mkdirSync(dir);
  for (const entry of fs.readdirSync(process.cwd())) {
    if (!hide.includes(entry)) fs.symlinkSync(path.resolve(entry), path.join(dir, entry));
  }
  return dir;
}

export async function startOwnServer(name: string, setup: (dir: string) => string, options: OwnServerOptions = {}): Promise<OwnServer> {
  const state = ownState(name, setup);
  let server: NextServer | undefined;
  const stop = async () => {
    await server?.kill("SIGTERM");
    state.remove();
  };
  try {
    const cwd = options.hide ? checkoutWithout(path.join(state.dir, "checkout"), options.hide) : undefined;
    server = new NextServer(await freePort(), state.env, cwd);
    await server.ready(undefined, options.readyProbe);
  } catch (error) {
    await stop();
    throw error;
  }
  return { ...state, server, origin: server.origin, stop };
}

/** A process of this machine as /proc shows it. */
export interface ProcessInfo {
  pid: number;
  ppid: number;
  state: string;
  argv: string[];
}

function readProcess(pid: number): ProcessInfo | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name may contain spaces and parentheses: the fields start after the last ")".
    const [state = "", ppid = "0"] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const argv = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
    return { pid, ppid: Number(ppid), state, argv };
  } catch {
    return undefined; // it ended meanwhile
  }
}

/** Every process below `root` (children, grandchildren, …). */
export function descendants(root: number): ProcessInfo[] {
  const all = fs
    .readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => readProcess(Number(name)) ?? []);
  const found: ProcessInfo[] = [];
  const parents = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of all) {
      if (!parents.has(p.pid) && parents.has(p.ppid)) {
        parents.add(p.pid);
        found.push(p);
        grew = true;
      }
    }
  }
  return found;
}

/** Running, not merely a zombie its new parent has yet to reap. */
export function isRunning(pid: number): boolean {
  const info = readProcess(pid);
  return info !== undefined && info.state !== "Z";
}
