import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { settingsSchema } from "@/lib/settings/schema";
import { parseSuite } from "./suite";
import { assertRunnable, isTrustedSuite, suiteAsks, SuiteTrustError } from "./trust";

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-trust-")));
const examplesDir = path.join(root, "toolroom/examples/evals");
const places = { sourceRoot: path.join(root, "src"), examplesDir };
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const trusted = (entries: string[], file: string) => isTrustedSuite(file, settingsSchema.parse({ evals: { trusted: entries } }), places);

describe("which suites are trusted", () => {
  it("the examples are; a source-root suite only when evals.trusted names it (path, glob or absolute)", () => {
    expect(trusted([], path.join(examplesDir, "builtins.eval.yaml"))).toBe(true);
    const file = path.join(places.sourceRoot, "suites/a.eval.yaml");
    expect(trusted([], file)).toBe(false);
    expect(trusted(["suites/a.eval.yaml"], file)).toBe(true);
    expect(trusted(["./suites/a.eval.yaml"], file)).toBe(true);
    expect(trusted(["suites/*.eval.yaml"], file)).toBe(true);
    expect(trusted(["suites/**"], file)).toBe(true);
    expect(trusted([file], file)).toBe(true);
    expect(trusted(["suites/b.eval.yaml", "other/*.eval.yaml"], file)).toBe(false);
    expect(trusted(["*.eval.yaml"], file)).toBe(false);
  });

  it("a relative entry never reaches out of the source root, and examples/evals in a stranger's tree is not Toolroom's", () => {
    const outside = path.join(root, "elsewhere/x.eval.yaml");
    expect(trusted(["../elsewhere/x.eval.yaml"], outside)).toBe(false);
    expect(trusted(["**"], outside)).toBe(false);
    expect(trusted([], path.join(places.sourceRoot, "examples/evals/x.eval.yaml"))).toBe(false);
  });
});

describe("what a suite asks for", () => {
  const suite = parseSuite(
    `name: s
settings:
  tools: { run_terminal_command: { enabled: true, passEnv: [OPENAI_API_KEY] }, read_file: { llm: { type: ref, ref: big } } }
  plugins: { paths: [./evilplugin] }
cases:
  - { name: ok, prompt: hi }
  - { name: yes, prompt: hi, confirm: approve }
  - { name: mocked, prompt: hi, mocks: { write_note: done, read_file: text } }
`,
    "s.eval.yaml",
  );
  const asks = suiteAsks(suite, (tool) => tool === "write_note");

  it("lists plugins, tool sections with their keys, and the calls it would approve (confirm: approve, a mock of a confirming tool)", () => {
    expect(asks).toEqual({
      plugins: ["./evilplugin"],
      tools: [
        { name: "run_terminal_command", keys: ["enabled", "passEnv"] },
        { name: "read_file", keys: ["llm"] },
      ],
      approves: ["case yes: confirm approve", "case mocked: mocks write_note (a confirming tool)"],
      trials: 1,
    });
  });

  it("refuses it untrusted, naming each item and the line that trusts it; trusted, or asking for nothing, it runs", () => {
    expect(() => assertRunnable(asks, false, "s.eval.yaml", "suites/s.eval.yaml")).toThrow(SuiteTrustError);
    expect(() => assertRunnable(asks, false, "s.eval.yaml", "suites/s.eval.yaml")).toThrow(
      /loads the plugin \.\/evilplugin; configures the tool run_terminal_command \(enabled, passEnv\); .*evals: \{ trusted: \["suites\/s\.eval\.yaml"\] \}/,
    );
    expect(() => assertRunnable(asks, true, "s.eval.yaml", "suites/s.eval.yaml")).not.toThrow();
    const plain = suiteAsks(parseSuite("name: p\ncases: [{ name: c, prompt: hi, mocks: { read_file: x } }]\n", "p.eval.yaml"), () => false);
    expect(() => assertRunnable(plain, false, "p.eval.yaml", "p.eval.yaml")).not.toThrow();
  });
});
