// Issue CC: the npm package, as a person meets it. `npm pack` of this checkout, installed into an
// empty folder with a plugin beside it, `toolroom serve` there, and one chat with the offline model
// that reads that folder's package.json. npm's own prepack step (scripts/pack.mjs) is run first
// by name, then `npm pack --ignore-scripts`: `prepare` (prisma generate) would rewrite generated/
// under the other specs' CLIs.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat";
import { freePort, rawRequest } from "./pages/security-http";
import { shotPath } from "./pages/shots";

const ROOT = path.resolve(import.meta.dirname, "..");
const MAX_PACKAGE_BYTES = 40 * 1024 * 1024;

let work: string;
let serve: ChildProcess | undefined;
let output: { text: string };
let origin: string;

function run(cmd: string, args: string[], cwd: string): string {
  const result = spawnSync(cmd, args, { cwd, encoding: "utf8", maxBuffer: 64 << 20 });
  if (result.status !== 0) throw new Error(`${cmd} ${args.join(" ")} exited ${result.status}:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/** What `npm install <plugin>` leaves: the package and what it imports, in the folder's node_modules. */
function installPlugin(folder: string, name: string) {
  const from = fs.realpathSync(path.join(ROOT, "node_modules", name));
  fs.cpSync(from, path.join(folder, "node_modules", name), {
    recursive: true,
    filter: (source) => !path.relative(from, source).split(path.sep).includes("node_modules"),
  });
}

/** A person's shell: no settings, database or Toolroom variables of this checkout's test run. */
function personEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_DATA_HOME: path.join(work, "data"), XDG_CONFIG_HOME: path.join(work, "config") };
  for (const name of Object.keys(env)) if (name.startsWith("TOOLROOM_") || name === "DATABASE_URL" || name === "PORT") delete env[name];
  return env;
}

/** `toolroom serve --port P` in the person's folder (`bare`: `toolroom` alone, with PORT=P), answering /tools. */
async function startServe(bare = false): Promise<{ child: ChildProcess; origin: string; output: { text: string } }> {
  const port = await freePort();
  const output = { text: "" };
  const child = spawn(path.join(work, "my-plugins", "node_modules", ".bin", "toolroom"), bare ? [] : ["serve", "--port", String(port)], {
    cwd: path.join(work, "my-plugins"),
    env: { ...personEnv(), ...(bare ? { PORT: String(port) } : {}) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk: Buffer) => (output.text += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output.text += chunk.toString()));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`toolroom serve exited ${child.exitCode}:\n${output.text}`);
    const status = await rawRequest(`http://127.0.0.1:${port}/tools`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return { child, origin: `http://127.0.0.1:${port}`, output };
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** SIGTERM, as a process manager stops it: the command ends, and the server it started with it. */
async function stopServe(child: ChildProcess, at: string): Promise<void> {
  if (child.exitCode === null) {
    const ended = new Promise((resolve) => child.on("exit", resolve));
    child.kill("SIGTERM");
    await ended;
  }
  await expect
    .poll(() =>
      rawRequest(`${at}/tools`).then(
        () => "answering",
        () => "stopped",
      ),
    )
    .toBe("stopped");
}

test.describe.configure({ timeout: 300_000 });

test.beforeAll(async () => {
  // Packing (a hundred megabytes through gzip) and installing take a while on a busy machine.
  test.setTimeout(300_000);
  work = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-packed-"));
  try {
    run(process.execPath, ["scripts/pack.mjs"], ROOT);
    const [packed] = JSON.parse(run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", work], ROOT)) as { filename: string }[];
    if (!packed) throw new Error("npm pack made no tarball");
    const tgz = path.join(work, packed.filename);
    expect(fs.statSync(tgz).size, "the package's size").toBeLessThanOrEqual(MAX_PACKAGE_BYTES);

    const folder = path.join(work, "my-plugins");
    fs.mkdirSync(folder);
    fs.writeFileSync(path.join(folder, "package.json"), `${JSON.stringify({ name: "my-plugin-folder", version: "3.1.4", private: true }, null, 2)}\n`);
    run("npm", ["install", "--no-audit", "--no-fund", "--offline", tgz], folder);
    for (const name of ["toolroom-plugin-sample", "toolroom-plugin-kit", "zod"]) installPlugin(folder, name);

    ({ child: serve, origin, output } = await startServe());
  } catch (error) {
    serve?.kill("SIGKILL");
    throw error;
  }
});

test.afterAll(async () => {
  if (serve) await stopServe(serve, origin);
  fs.rmSync(work, { recursive: true, force: true });
  // scripts/pack.mjs made it in the checkout; the tarball holds it now.
  fs.rmSync(path.join(ROOT, "dist"), { recursive: true, force: true });
});

test("the package's CLI serves the same registry over MCP on stdio", async () => {
  const mcp = spawn(path.join(work, "my-plugins", "node_modules", ".bin", "toolroom"), ["mcp"], {
    cwd: path.join(work, "my-plugins"),
    env: personEnv(),
    stdio: ["pipe", "pipe", "pipe"],
  });
  let replies = "";
  const listed = new Promise<string>((resolve, reject) => {
    mcp.stdout.on("data", (chunk: Buffer) => {
      replies += chunk.toString();
      const line = replies.split("\n").find((l) => l.includes('"id":2'));
      if (line) resolve(line);
    });
    mcp.on("exit", (code) => reject(new Error(`toolroom mcp exited ${code} before it answered`)));
  });
  const send = (message: object) => mcp.stdin.write(`${JSON.stringify(message)}\n`);
  send({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "packed-spec", version: "1" } },
  });
  send({ jsonrpc: "2.0", method: "notifications/initialized" });
  send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
  const tools = (JSON.parse(await listed) as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name);
  mcp.stdin.end();
  expect(tools).toEqual(expect.arrayContaining(["read_file", "list_files", "sample_word_count"]));
});

test("the package serves the folder it starts in: its package.json in a chat, its plugin on /tools, its database in the data folder", async ({ page }) => {
  expect(output.text).toContain(`toolroom: serving on ${origin}`);
  expect(output.text).toContain(`source root ${path.join(work, "my-plugins")}`);
  expect(output.text).toContain(`SQLite ${path.join(work, "data", "toolroom", "toolroom.db")}`);
  expect(output.text).toMatch(/applied \d+ migrations/);
  expect(fs.existsSync(path.join(work, "my-plugins", "data")), "no database in the person's folder").toBe(false);

  await page.goto(`${origin}/tools`);
  await expect(page.locator(`[data-testid="tool-row"][data-tool="sample_word_count"]`)).toBeVisible();

  // The plugin's page: its source highlighted by shiki, one of the packages the server loads from the package's node_modules.
  await page.goto(`${origin}/tools/sample_word_count`);
  await expect(page.getByTestId("source-file")).toHaveText("src/tools.ts");
  await expect(page.locator("pre.shiki span[style*='--shiki-dark']").first()).toBeAttached();

  const chat = new ChatPage(page);
  await page.goto(`${origin}/chat`);
  await expect(page.getByTestId("composer-input")).toBeVisible();
  await chat.send('read_file {"path": "package.json"}');
  await expect(chat.toolCards("read_file")).toHaveAttribute("data-state", "output-available");
  await expect(chat.assistantMessages.last()).toContainText('"name": "my-plugin-folder"');
  await chat.waitIdle();

  // The plugin's confirming tool asks first; approved, it writes into the served folder.
  await chat.send('sample_save_note {"title": "from-the-package", "body": "served by npx toolroom"}');
  await expect(chat.dialog.getByTestId("approval-tool")).toHaveText("sample_save_note");
  await chat.dialog.getByTestId("approval-approve").click();
  await expect(chat.toolCards("sample_save_note")).toHaveAttribute("data-state", "output-available");
  await chat.waitIdle();
  expect(fs.readFileSync(path.join(work, "my-plugins", ".toolroom", "notes", "from-the-package.md"), "utf8")).toContain("served by npx toolroom");
  for (const theme of ["light", "dark"] as const) {
    await page.evaluate((t) => document.documentElement.classList.toggle("dark", t === "dark"), theme);
    await page.screenshot({ path: shotPath(`packed-chat-${theme}.png`) });
  }
});

test("stopped, and started again as `toolroom` alone, it serves the same database without setting anything up again", async ({ page }) => {
  if (!serve) throw new Error("no first serve");
  await stopServe(serve, origin);
  ({ child: serve, origin, output } = await startServe(true));
  expect(output.text).not.toMatch(/applied \d+ migrations/);
  await page.goto(`${origin}/chat`);
  await expect(page.getByTestId("chat-history-item").first()).toContainText('read_file {"path": "package.json"}');
});
