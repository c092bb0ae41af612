import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseSuite } from "@/lib/evals/suite";
import { HttpError } from "@/lib/server/http/http-error";
import { settingsSchema, type Settings } from "@/lib/settings/schema";
import { caseFiles, saveCase } from "./save-case";

let root: string;
let settings: Settings;

const SUITE = `# Our search cases: keep them short.
name: search
matrix: { models: [offline] }
cases:
  # the basic one
  - name: lists
    prompt: list files in lib
    expect: { calls: [{ tool: list_files }] }
`;

const CASE = `name: reads
prompt: read README.md # the readme
expect:
  calls:
    - tool: read_file
      args: { path: README.md }
`;

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-save-case-")));
  settings = settingsSchema.parse({ sourceRoot: root });
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const suiteFile = (name = "search.eval.yaml") => path.join(root, "evals", name);
function writeSuite(text = SUITE, name = "search.eval.yaml") {
  fs.mkdirSync(path.dirname(suiteFile(name)), { recursive: true });
  fs.writeFileSync(suiteFile(name), text);
}

async function refusal(work: () => Promise<unknown>): Promise<HttpError> {
  try {
    await work();
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error("not refused");
}

describe("saving a case into a suite under evals/", () => {
  it("appends it, keeping the file's comments and other content, and the suite loads with one case more", async () => {
    writeSuite();
    expect(await saveCase(settings, { file: "search.eval.yaml", text: CASE })).toEqual({
      file: "search.eval.yaml",
      caseName: "reads",
      cases: 2,
      created: false,
      saved: true,
    });
    const text = fs.readFileSync(suiteFile(), "utf8");
    // Every byte of the suite as it was, the case after it.
    expect(text.startsWith(SUITE)).toBe(true);
    // The saved case's own comment comes along.
    expect(text).toContain("# the readme");
    const suite = parseSuite(text, "s");
    expect(suite.cases.map((c) => c.name)).toEqual(["lists", "reads"]);
    expect(suite.cases[1]!.expect.calls[0]).toMatchObject({ tool: "read_file", args: { path: "README.md" } });
    // Nothing but the suite is left in the folder (the temp file was renamed into place).
    expect(fs.readdirSync(path.join(root, "evals"))).toEqual(["search.eval.yaml"]);
  });

  it("adds to a flow-style list or one followed by other keys, keeping the comments", async () => {
    writeSuite("name: s # the suite\ncases: [{ name: a, prompt: hi }]\n");
    await saveCase(settings, { file: "search.eval.yaml", text: CASE });
    const flow = fs.readFileSync(suiteFile(), "utf8");
    expect(flow).toContain("# the suite");
    expect(parseSuite(flow, "s").cases.map((c) => c.name)).toEqual(["a", "reads"]);
    writeSuite("name: s\ncases:\n  - name: a\n    prompt: hi\n# about the matrix\nmatrix: { trials: 2 }\n");
    await saveCase(settings, { file: "search.eval.yaml", text: CASE });
    const block = fs.readFileSync(suiteFile(), "utf8");
    expect(block).toContain("# about the matrix\nmatrix: { trials: 2 }\n");
    const suite = parseSuite(block, "s");
    expect([suite.cases.map((c) => c.name), suite.matrix.trials]).toEqual([["a", "reads"], 2]);
  });

  it("starts a new suite named after the file (making evals/), and accepts JSON", async () => {
    const json = JSON.stringify({ name: "lists", prompt: "list files", expect: { calls: [{ tool: "list_files" }] } });
    expect(await saveCase(settings, { file: "new-one.eval.yaml", text: json })).toMatchObject({ created: true, cases: 1 });
    const suite = parseSuite(fs.readFileSync(suiteFile("new-one.eval.yaml"), "utf8"), "s");
    expect(suite.name).toBe("new-one");
    expect(caseFiles(settings).files).toEqual([{ file: "new-one.eval.yaml", name: "new-one", cases: 1, error: null }]);
  });

  it("refuses a case name the suite has (409) and leaves the file as it was", async () => {
    writeSuite();
    const error = await refusal(() => saveCase(settings, { file: "search.eval.yaml", text: CASE.replace("name: reads", "name: lists") }));
    expect(error.status).toBe(409);
    expect(error.message).toBe('evals/search.eval.yaml has a case named "lists" already: choose another name.');
    expect(fs.readFileSync(suiteFile(), "utf8")).toBe(SUITE);
  });

  it("refuses a case the suite schema rejects, naming each key, and writes nothing", async () => {
    writeSuite();
    const error = await refusal(() =>
      saveCase(settings, { file: "search.eval.yaml", text: "name: bad name\nexpect: { calls: [{ args: {} }], only: maybe }\n" }),
    );
    expect(error.status).toBe(400);
    expect(error.message.split("\n")).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^key name: /),
        expect.stringMatching(/^key expect\.calls\.0\.tool: /),
        expect.stringMatching(/^key expect\.only: /),
      ]),
    );
    expect((await refusal(() => saveCase(settings, { file: "search.eval.yaml", text: "name: [unclosed" }))).message).toMatch(/^YAML: /);
    expect((await refusal(() => saveCase(settings, { file: "search.eval.yaml", text: "- a\n- b\n" }))).message).toMatch(/must be a mapping/);
    // What only the whole suite can tell (a regex RE2 cannot compile, a judge settings lack) is refused too.
    const judged = `name: judged\nprompt: hi\nexpect: { answer: { judge: "polite", model: nobody } }\n`;
    expect((await refusal(() => saveCase(settings, { file: "search.eval.yaml", text: judged }))).message).toMatch(
      /key expect\.answer\.model: no model named "nobody"/,
    );
    expect(fs.readFileSync(suiteFile(), "utf8")).toBe(SUITE);
  });

  it("writes nothing on a dry run", async () => {
    writeSuite();
    expect(await saveCase(settings, { file: "search.eval.yaml", text: CASE, dryRun: true })).toMatchObject({ saved: false, cases: 2 });
    expect(fs.readFileSync(suiteFile(), "utf8")).toBe(SUITE);
    await saveCase(settings, { file: "fresh.eval.yaml", text: CASE, dryRun: true });
    expect(fs.existsSync(suiteFile("fresh.eval.yaml"))).toBe(false);
  });

  it("stays inside <sourceRoot>/evals/: other names, escapes and links are refused", async () => {
    writeSuite();
    for (const file of [
      "../escape.eval.yaml",
      "/tmp/abs.eval.yaml",
      "search.yaml",
      ".eval.yaml",
      "sub/../../x.eval.yaml",
      "a b.eval.yaml",
      "sub\\x.eval.yaml",
    ]) {
      expect((await refusal(() => saveCase(settings, { file, text: CASE }))).status, file).toBe(400);
    }
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-save-case-out-"));
    try {
      fs.writeFileSync(path.join(outside, "x.eval.yaml"), SUITE);
      fs.symlinkSync(path.join(outside, "x.eval.yaml"), suiteFile("link.eval.yaml"));
      expect((await refusal(() => saveCase(settings, { file: "link.eval.yaml", text: CASE }))).message).toMatch(/escapes the source root/);
      fs.symlinkSync(outside, path.join(root, "evals", "away"));
      expect((await refusal(() => saveCase(settings, { file: "away/x.eval.yaml", text: CASE }))).status).toBe(400);
      expect(fs.readFileSync(path.join(outside, "x.eval.yaml"), "utf8")).toBe(SUITE);
      // evals/ itself a link elsewhere in the source root: refused, not followed.
      fs.rmSync(path.join(root, "evals"), { recursive: true });
      fs.mkdirSync(path.join(root, "other"));
      fs.symlinkSync(path.join(root, "other"), path.join(root, "evals"));
      expect((await refusal(() => saveCase(settings, { file: "n.eval.yaml", text: CASE }))).message).toMatch(/is a link/);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it("lists the suite files under evals/ (nested too) with their case counts and load errors", async () => {
    writeSuite();
    writeSuite("name: [", "sub/broken.eval.yaml");
    fs.writeFileSync(path.join(root, "evals", "notes.yaml"), "x: 1\n");
    const { files } = caseFiles(settings);
    expect(files.map((f) => [f.file, f.cases])).toEqual([
      ["search.eval.yaml", 1],
      ["sub/broken.eval.yaml", null],
    ]);
    expect(files[1]!.error).toMatch(/YAML/);
  });
});
