import { describe, expect, it } from "vitest";
import { admitCommand, allowlistPolicy } from "./shell-policy";
import { hardenGit } from "./shell-programs";

describe("admitCommand", () => {
  it("uses the schema's defaults when settings say nothing", () => {
    expect(admitCommand("git log --oneline | head -5")).toBeNull();
    expect(admitCommand("python x.py")).toMatch(/not an allowed command/);
    expect(admitCommand("ls", { allowedCommands: ["cat"] })).toMatch(/"ls" is not an allowed command/);
    expect(admitCommand("cat a", { blockedSubstrings: ["cat"] })).toMatch(/blocked text "cat"/);
  });

  it("fails closed when a policy throws", () => {
    const boom = {
      name: "boom",
      check: () => {
        throw new Error("bad");
      },
    };
    expect(admitCommand("ls", {}, [boom])).toBe('policy "boom" failed: bad');
  });
});

describe("allowlistPolicy", () => {
  it("refuses an empty stage", () => {
    expect(allowlistPolicy(["ls"]).check("ls |")).toBe("empty command (pipeline stage 2)");
  });

  it("judges the words, not the quoting", () => {
    expect(admitCommand("'ls' -la")).toBeNull();
    expect(admitCommand("l\\s -la")).toBeNull();
    expect(admitCommand("/bin/ls")).toBe('"/bin/ls" is not a plain program name');
    expect(admitCommand("git grep -n 'a;b' | wc -l")).toBeNull();
  });
});

describe("per-program allow-lists", () => {
  it("refuses an abbreviation of a dangerous long option, naming it", () => {
    expect(admitCommand("git diff --out=x")).toBe(
      '"git diff --out" is refused: it is or abbreviates --output, which can run other programs, write files or leave the source root',
    );
    expect(admitCommand("git grep --open-files x")).toMatch(/abbreviates --open-files-in-pager/);
    expect(admitCommand("git log --ext")).toMatch(/abbreviates --ext-diff/);
    expect(admitCommand("git -c core.pager=x log")).toBe('"git -c" is not an option the shell tool allows');
  });

  it("refuses an abbreviation of an allowed option too, and unknown options", () => {
    expect(admitCommand("ls --al")).toBe('"ls --al" is refused: spell the option out (--all, --almost-all)');
    expect(admitCommand("ls --all")).toBeNull();
    expect(admitCommand("grep --frobnicate x f")).toBe('"grep --frobnicate" is not an option the shell tool allows');
  });

  it("reads combined short flags, attached and separate values, -NUM and --", () => {
    expect(admitCommand("grep -rn x .")).toBeNull();
    expect(admitCommand("grep -rnO x .")).toBe('"grep -O" is not an option the shell tool allows');
    expect(admitCommand("grep -e --output f")).toBeNull(); // --output is -e's pattern, not an option
    expect(admitCommand("grep -A3 -B 2 -5 x f")).toBeNull();
    expect(admitCommand("head -n")).toBe('"head -n" needs a value');
    expect(admitCommand("cat -- --output -O")).toBeNull(); // after --, file names
    expect(admitCommand("git log -- --output=x")).toBeNull();
    expect(admitCommand("git log -n3 -5 --format=%h")).toBeNull();
    expect(admitCommand("git log --format %h")).toBe('"git log --format" needs its value attached: --format=VALUE');
    expect(admitCommand("wc --lines=3")).toBe('"wc --lines" takes no value');
  });

  it("lets git run read-only subcommands only", () => {
    expect(admitCommand("git init /tmp/x")).toMatch(/^"git init" is not allowed: only read-only subcommands run \(status, log/);
    expect(admitCommand("git --git-dir=/x status")).toMatch(/abbreviates --git-dir/);
    expect(admitCommand("git -C /tmp status")).toBe('"git -C" is not an option the shell tool allows');
    expect(admitCommand("git log --help")).toMatch(/abbreviates --help/);
    expect(admitCommand("git branch")).toBeNull();
    expect(admitCommand("git branch -a -vv")).toBeNull();
    expect(admitCommand("git branch new-one")).toMatch(/would create a branch/);
    expect(admitCommand("git branch --list 'feat*'")).toBeNull();
    expect(admitCommand("git tag v9")).toMatch(/would create a tag/);
    expect(admitCommand("git tag -d v1")).toBe('"git tag -d" is not an option the shell tool allows');
    expect(admitCommand("git --version")).toBeNull();
    expect(admitCommand("git -- log")).toBe('"git --" is not allowed before the subcommand');
  });

  it("holds find to printing primaries", () => {
    expect(admitCommand("find . -name '*.ts' -not -path './node_modules/*' -print")).toBeNull();
    expect(admitCommand("find . \\( -name a -o -name b \\) -type f")).toBeNull();
    expect(admitCommand("find . -name x -o -exec rm {} +".replace("{}", "'{}'"))).toBe('"find -exec" is refused: it runs other programs or writes files');
    expect(admitCommand("find -delete")).toBe('"find -delete" is refused: it runs other programs or writes files');
    expect(admitCommand("find . -newer")).toBe('"find -newer" needs a value');
    expect(admitCommand("find . -name -exec")).toBeNull(); // -exec is -name's pattern here
    expect(admitCommand("find . -files0-from x")).toBe('"find -files0-from" is not a find primary the shell tool allows');
  });

  it("admits any arguments for a program the settings add", () => {
    expect(admitCommand("touch --anything x", { allowedCommands: ["touch"] })).toBeNull();
  });

  it("takes an exact spelling as that option, as getopt and git do, and anything longer as an abbreviation", () => {
    expect(admitCommand("git diff --text")).toBeNull(); // exact, though a prefix of --textconv
    expect(admitCommand("git diff --textc")).toMatch(/abbreviates --textconv/);
    expect(admitCommand("git diff --textconv")).toMatch(/is or abbreviates --textconv/);
  });
});

describe("hardenGit", () => {
  it("puts the tool's own options first and the subcommand's forced flags after it", () => {
    const words = hardenGit(["--no-pager", "log", "-p"]);
    expect(words.slice(0, 4)).toEqual(["--no-pager", "--no-optional-locks", "-c", "core.pager=cat"]);
    expect(words).toContain("core.fsmonitor=false");
    expect(words.slice(-5)).toEqual(["--no-pager", "log", "--no-ext-diff", "--no-textconv", "-p"]);
    expect(hardenGit(["status"]).at(-1)).toBe("status");
  });
});
