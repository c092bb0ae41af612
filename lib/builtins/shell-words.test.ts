import { describe, expect, it } from "vitest";
import { parseCommand, renderPipeline, shellQuote } from "./shell-words";

const stages = (command: string) => {
  const parsed = parseCommand(command);
  return parsed.ok ? parsed.stages : parsed.reason;
};

describe("parseCommand", () => {
  it("splits words and pipeline stages as a shell would", () => {
    expect(stages("grep 'a|b' f | wc -l")).toEqual([
      ["grep", "a|b", "f"],
      ["wc", "-l"],
    ]);
    expect(stages('grep "x\\"|y" f')).toEqual([["grep", 'x"|y', "f"]]);
    expect(stages("ls |")).toEqual([["ls"], []]);
    expect(stages("git grep -n ''")).toEqual([["git", "grep", "-n", ""]]);
    expect(stages("a\\ b '-O''x y' \"-\"O c\\d")).toEqual([["a b", "-Ox y", "-O", "cd"]]);
    expect(stages("grep \"a\\b\" '$HOME' x;y=1".replace(";", "';'"))).toEqual([["grep", "a\\b", "$HOME", "x;y=1"]]);
    expect(stages("find . -name '*.ts' a~b c#d")).toEqual([["find", ".", "-name", "*.ts", "a~b", "c#d"]]);
  });

  it("refuses what a shell would expand, chain or redirect", () => {
    for (const [command, why] of [
      ["ls; ls", "';'"],
      ["ls && ls", "'&'"],
      ["ls || ls", "'||'"],
      ["ls $(id)", "'$('"],
      ["ls $HOME", "'$' expansion"],
      ['ls "$HOME"', "inside double quotes"],
      ['ls "`id`"', "backticks"],
      ["ls > x", "'>'"],
      ["ls 2>x", "'>'"],
      ["cat <x", "'<'"],
      ["ls *.ts", "glob"],
      ["ls a?", "glob"],
      ["ls [ab]", "glob"],
      ["ls {a,b}", "brace"],
      ["ls ~", "'~'"],
      ["ls #x", "comment"],
      ["(ls)", "parentheses"],
      ["ls\nid", "newline"],
      ["ls\rid", "carriage return"],
      ["ls\0", "NUL"],
    ] as const) {
      expect(stages(command), command).toMatch(why);
    }
    expect(stages("ls 'x")).toBe("unterminated single quote");
    expect(stages('ls "x')).toBe("unterminated double quote");
    expect(stages("ls x\\")).toBe("a trailing backslash");
  });
});

describe("renderPipeline", () => {
  it("quotes every word so the shell passes it through unchanged", () => {
    expect(shellQuote("--format=%h")).toBe("--format=%h");
    expect(shellQuote("it's; $x *")).toBe(`'it'\\''s; $x *'`);
    expect(shellQuote("")).toBe("''");
    expect(
      renderPipeline([
        ["git", "log", "a b"],
        ["head", "-1"],
      ]),
    ).toBe("git log 'a b' | head -1");
    // A round trip: what renders parses back to the same words.
    const words = [["grep", "-e", "a'b\"c$d`e", "~x", "#y", "*"]];
    const parsed = parseCommand(renderPipeline(words));
    expect(parsed).toEqual({ ok: true, stages: words });
  });
});
