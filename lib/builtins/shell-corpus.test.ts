import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testContext } from "@/lib/testing/context";
import type { ToolContext } from "@/lib/tools/types";
import { runShell, runTerminalCommand } from "./shell";

/**
 * The shell tool against hostile commands, with the default allowlist (it holds git) in a source
 * root that is a git repository. Each command would leave the marker file M if it ran.
 */
let dir: string;
let ctx: ToolContext;

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args], { cwd, stdio: "pipe" }).toString();

function makeRepo(prefix: string): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  git(root, "init", "-q");
  fs.writeFileSync(path.join(root, "hello.txt"), "hello\nworld\n");
  fs.mkdirSync(path.join(root, "src"));
  fs.writeFileSync(path.join(root, "src", "a.ts"), "export const foo = 1;\n");
  git(root, "add", ".");
  git(root, "commit", "-qm", "first");
  fs.appendFileSync(path.join(root, "hello.txt"), "again\n");
  return root;
}

beforeAll(() => {
  dir = makeRepo("toolroom-shell-corpus-");
  // Repository config the tool neutralizes rather than refuses: a pager and an fsmonitor hook.
  const hook = path.join(dir, ".git", "fsmonitor-hook.sh");
  fs.writeFileSync(hook, `#!/bin/sh\ntouch ${path.join(dir, "fsmonitor-ran")}\n`, { mode: 0o755 });
  git(dir, "config", "core.fsmonitor", hook);
  git(dir, "config", "core.pager", `touch ${path.join(dir, "pager-ran")}`);
  ctx = testContext({ sourceRoot: dir, settings: { timeoutSeconds: 10 } });
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const run = async (command: string, c: ToolContext = ctx) => String(await runTerminalCommand.execute({ command }, c));

const HOSTILE: string[] = [
  // git running other programs: -O / --open-files-in-pager and their spellings
  "git grep --no-index -O'touch M #' hello",
  `git grep --no-index -O"python3 -Bc 'open(\\"M\\", \\"w\\")' #" hello`,
  "git grep -O'touch M #' hello",
  "git grep -nO'touch M #' hello",
  "git grep --open-files-in-pager='touch M #' hello",
  "git grep --open-files='touch M #' hello",
  "git grep --open='touch M #' hello",
  "git grep --no-index hello -O'touch M #'",
  "git grep --no-index '-O''touch M #' hello",
  "git grep --no-index \\-O'touch M #' hello",
  "git grep --no-index \"-O\"'touch M #' hello",
  "git grep --no-index -Otouch\\ M\\ \\# hello",
  "git --no-pager grep --no-index -O'touch M #' hello",
  "g\\it grep -O'touch M #' hello",
  "git gr\\ep -O'touch M #' hello",
  "'git' \"grep\" -O'touch M #' hello",
  // git config from the command line, the environment, or a file
  "git -c core.pager='touch M' -p log",
  "git -c core.pager='touch M' log",
  "git -ccore.pager='touch M' log",
  "git -c alias.x='!touch M' x",
  "git -c diff.external='touch M' diff --ext-diff HEAD",
  "git -c core.fsmonitor='touch M' status",
  "git --config-env=core.pager=M log",
  "git config --file M x.y z",
  "git config core.pager 'touch M'",
  "GIT_PAGER='touch M' git -p log",
  "GIT_EXTERNAL_DIFF='touch M' git diff",
  "env GIT_PAGER='touch M' git log",
  // git writing files
  "git diff --output=M",
  "git diff --output M",
  "git diff --out=M",
  "git diff --outp=M",
  "git log -p --output=M",
  "git log --out=M",
  "git show --output=M HEAD",
  "git diff --no-index hello.txt src/a.ts --output=M",
  "git -P log --oneline --output=M",
  "git --literal-pathspecs diff --output=M",
  "git format-patch -1 -o M",
  "git format-patch --output-directory=M -1",
  "git archive -o M HEAD",
  "git bundle create M HEAD",
  "git bugreport -o M",
  "git fast-export --export-marks=M HEAD",
  // git leaving the root or pointed elsewhere
  "git init M",
  "git init --bare M",
  "git -C . init M",
  "git --git-dir=M init",
  "git --git-d=M init",
  "git --work-tree=M status",
  "git --exec-path=M status",
  "git -- diff --output=M",
  "git clone . M",
  "git worktree add M",
  // git subcommands that run programs
  "git difftool -x 'touch M' --no-prompt HEAD",
  "git submodule foreach 'touch M'",
  "git bisect run touch M",
  "git rebase --exec 'touch M' HEAD",
  "git -c protocol.ext.allow=always ls-remote 'ext::touch M'",
  "git log --ext-diff -p",
  "git show --textconv HEAD:hello.txt",
  "git log --show-signature",
  "git log --help",
  // find
  "find . -exec touch M ';'",
  "find . -execdir touch M \\;",
  "find . -ok touch M \\;",
  "find -exec touch M \\;",
  "find . -name x -o -exec touch M +",
  "find . \\( -exec touch M \\; \\)",
  "find . -fprint M",
  "find . -fprint0 M",
  "find . -fprintf M x",
  "find . -fls M",
  // shell syntax routes around the allow-lists
  "git status; touch M",
  "git status && touch M",
  "git log $(touch M)",
  'git log "$(touch M)"',
  "git log `touch M`",
  "git log --oneline > M",
  "git log --oneline 1>M",
  "cat hello.txt >> M",
  "git show HEAD:hello.txt | tee M",
  "git ls-files | xargs touch M",
  "ls | sh -c 'touch M'",
  "X=1 touch M",
  "ls\ntouch M",
];

describe("run_terminal_command against hostile commands (default allowlist)", () => {
  it("has a corpus of at least 60 hostile commands", () => {
    expect(HOSTILE.length).toBeGreaterThanOrEqual(60);
  });

  it("denies every one with its reason, and none of them runs", async () => {
    const markers: string[] = [];
    for (const [i, template] of HOSTILE.entries()) {
      const marker = path.join(dir, `marker-${i}`);
      markers.push(marker);
      const out = await run(template.replaceAll("M", marker));
      expect(out, template).toMatch(/^DENIED: \S/);
    }
    expect(markers.filter((m) => fs.existsSync(m))).toEqual([]);
  });

  it("has controls: the git routes are real when the words reach git unchecked", async () => {
    const repo = makeRepo("toolroom-shell-control-");
    try {
      const marker = path.join(repo, "control");
      await runShell(`git grep --no-index -O'touch ${marker} #' hello`, repo, 10_000);
      expect(fs.existsSync(marker)).toBe(true);
      fs.rmSync(marker);
      // An abbreviation git accepts for --open-files-in-pager.
      await runShell(`git grep --open='touch ${marker} #' hello`, repo, 10_000);
      expect(fs.existsSync(marker)).toBe(true);
    } finally {
      fs.rmSync(repo, { recursive: true, force: true });
    }
  });
});

const BENIGN: [string, RegExp][] = [
  ["git status", /hello\.txt/],
  ["git status --short", /M hello\.txt/],
  ["git log --oneline -n 3", /first/],
  ["git log -p -1 --format=%s", /\+world/],
  ["git grep -n foo", /src\/a\.ts:1:export const foo/],
  ["git diff", /\+again/],
  ["git diff --stat HEAD", /hello\.txt/],
  ["git show --stat HEAD", /first/],
  ["git blame hello.txt", /hello/],
  ["git ls-files", /src\/a\.ts/],
  ["git rev-parse --abbrev-ref HEAD", /\w/],
  ["git branch --list", /\w/],
  ["git log --oneline | head -1", /first/],
  ["ls -la", /hello\.txt/],
  ["grep -rn foo src", /a\.ts:1:/],
  ["find . -name '*.ts'", /\.\/src\/a\.ts/],
  ["find . -type f -not -path './.git/*' | wc -l", /^Exit code: 0\n\s*2$/],
  ["head -1 hello.txt", /^Exit code: 0\nhello$/],
  ["tail -n 1 hello.txt", /again/],
  ["cat -n hello.txt | grep -c o", /^Exit code: 0\n2$/],
];

describe("run_terminal_command keeps ordinary reading commands working", () => {
  it.each(BENIGN)("%s", async (command, expected) => {
    const out = await run(command);
    expect(out).toMatch(/^Exit code: 0\n/);
    expect(out).toMatch(expected);
  });

  it("runs git with the repository's pager and fsmonitor hook neutralized", async () => {
    await run("git status");
    await run("git log -p");
    expect(fs.existsSync(path.join(dir, "fsmonitor-ran"))).toBe(false);
    expect(fs.existsSync(path.join(dir, "pager-ran"))).toBe(false);
    // Control: git itself, run plainly here, does run the repository's fsmonitor hook.
    execFileSync("git", ["status"], { cwd: dir, stdio: "pipe" });
    expect(fs.existsSync(path.join(dir, "fsmonitor-ran"))).toBe(true);
    fs.rmSync(path.join(dir, "fsmonitor-ran"));
  });
});

describe("run_terminal_command and a repository's own git config", () => {
  it("refuses git where the config names a program git would run (textconv, filters)", async () => {
    const repo = makeRepo("toolroom-shell-config-");
    try {
      const marker = path.join(repo, "textconv-ran");
      fs.writeFileSync(path.join(repo, ".gitattributes"), "*.txt diff=evil\n");
      git(repo, "config", "diff.evil.textconv", `touch ${marker}; cat`);
      const c = testContext({ sourceRoot: repo, settings: {} });
      expect(await run("git log -p", c)).toBe(
        'DENIED: the repository\'s git config sets "diff.evil.textconv", which git would run as a program; git commands are refused here until that setting is removed',
      );
      expect(await run("git blame hello.txt", c)).toMatch(/^DENIED: .*diff\.evil\.textconv/);
      expect(fs.existsSync(marker)).toBe(false);
      // Control: git blame honours textconv by default, so the route is real.
      execFileSync("git", ["blame", "hello.txt"], { cwd: repo, stdio: "pipe" });
      expect(fs.existsSync(marker)).toBe(true);

      git(repo, "config", "--unset", "diff.evil.textconv");
      git(repo, "config", "filter.evil.clean", `touch ${marker}`);
      expect(await run("git status", c)).toMatch(/^DENIED: .*"filter\.evil\.clean"/);
      expect(await run("ls", c)).toMatch(/^Exit code: 0/); // other programs are unaffected
    } finally {
      fs.rmSync(repo, { recursive: true, force: true });
    }
  });
});

describe("run_terminal_command environment", () => {
  const SECRET = "sk-toolroom-test-secret-4242";
  const saved = { ...process.env };
  afterAll(() => {
    for (const name of ["TOOLROOM_TEST_API_KEY", "TOOLROOM_TEST_VISIBLE", "GIT_DIR"]) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  it("passes a minimal environment, never the server's", async () => {
    process.env.TOOLROOM_TEST_API_KEY = SECRET;
    process.env.TOOLROOM_TEST_VISIBLE = "shown";
    process.env.GIT_DIR = "/nonexistent";
    const plain = await run("grep -a -c sk-toolroom /proc/self/environ");
    expect(plain).toBe("Exit code: 1\n0");
    const env = await run("cat /proc/self/environ", testContext({ sourceRoot: dir, settings: { passEnv: ["TOOLROOM_TEST_VISIBLE", "GIT_DIR"] } }));
    expect(env).not.toContain(SECRET);
    expect(env).toContain("TOOLROOM_TEST_VISIBLE=shown");
    expect(env).toContain("PATH=/");
    expect(env).toContain("GIT_CONFIG_GLOBAL=/dev/null");
    expect(env).not.toContain("GIT_DIR="); // never passed, even when listed
    // The server's GIT_DIR does not redirect git either.
    expect(await run("git rev-parse --show-toplevel")).toBe(`Exit code: 0\n${fs.realpathSync(dir)}`);
  });
});
