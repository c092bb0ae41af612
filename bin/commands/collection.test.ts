import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runToolroom } from "@/lib/testing/cli";

/**
 * The acceptance of issue BB: a collection with vars and five calls — one failing expectation, one
 * `error: true`, one `notAdmitted: true` — exits 1 with JUnit failing exactly that call, and the
 * confirming tool never runs; --var substitutes; a typo is exit 2 naming the file, the line and the key.
 */
const SAMPLE = path.resolve(import.meta.dirname, "../../examples/plugins/toolroom-plugin-sample");
const root = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-collection-cli-"));
const settings = (extra = "") => `sourceRoot: .\nplugins: { paths: [${JSON.stringify(SAMPLE)}] }\n${extra}`;
fs.writeFileSync(path.join(root, "settings.yaml"), settings());
fs.writeFileSync(
  path.join(root, "deny-notes.yaml"),
  settings(`approvals:\n  rules:\n    - { name: no-notes, tool: sample_save_note, decision: deny, reason: notes are frozen }\n`),
);
const COLLECTION = `# yaml-language-server: $schema=./collection.schema.json
name: acceptance
vars: { phrase: "the quick brown fox", words: 4, title: from-collection }
calls:
  - name: count
    tool: sample_word_count
    input: { text: "{{phrase}}" }
    expect: { contains: "words={{words}}" }
  - name: wrong
    tool: sample_word_count
    input: { text: "two words" }
    expect: { contains: "words=99" }
  - name: missing
    tool: sample_file_stats
    input: { path: no/such/file.txt }
    expect: { error: true }
  - name: save
    tool: sample_save_note
    input: { title: "{{title}}", body: "{{calls.count.output}}" }
    expect: { notAdmitted: true }
  - name: echo
    tool: sample_word_count
    input: { text: "{{calls.count.output}}" }
    expect: { contains: "words=3" }
`;
fs.writeFileSync(path.join(root, "acceptance.calls.yaml"), COLLECTION);
fs.writeFileSync(path.join(root, "typo.calls.yaml"), COLLECTION.replace('input: { title: "{{title}}"', 'inptu: { title: "{{title}}"'));
const EVERYTHING = path.resolve(import.meta.dirname, "../../node_modules/@modelcontextprotocol/server-everything/dist/index.js");
fs.writeFileSync(
  path.join(root, "mcp.yaml"),
  `sourceRoot: .\nmcpServers:\n  everything: { command: node, args: [${JSON.stringify(EVERYTHING)}, stdio], prefix: ev_ }\n`,
);
fs.writeFileSync(
  path.join(root, "mcp.calls.yaml"),
  `name: mcp
vars: { a: 2 }
calls:
  - { name: weather, tool: ev_get-structured-content, input: { location: New York }, expect: { json: { conditions: { regex: "." } } } }
  - { name: sum, tool: ev_get-sum, input: { a: "{{a}}", b: "{{calls.weather.json.humidity}}" }, expect: { matches: '^The sum of 2 and \\d+ is \\d+\\.$' } }
`,
);
const note = path.join(root, ".toolroom/notes/from-collection.md");

const run = (...args: string[]) => runToolroom(["--config", "settings.yaml", "collection", "run", ...args], root);

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe("toolroom collection run", { timeout: 120_000 }, () => {
  it("exits 1 with JUnit failing exactly the call whose expectation failed; the confirming tool never runs", async () => {
    const result = await run("acceptance.calls.yaml", "--reporter", "junit", "--out", "report.xml");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("1 of 5 calls failed");
    const xml = fs.readFileSync(path.join(root, "report.xml"), "utf8");
    fs.rmSync(path.join(root, "report.xml"));
    expect(xml).toContain('<testsuites name="acceptance" tests="5" failures="1" errors="0"');
    const failing = [...xml.matchAll(/<testcase name="([^"]+)"[^/>]*>\s*<failure message="([^"]*)"/g)].map((m) => [m[1], m[2]]);
    expect(failing).toEqual([["wrong", "contains: expected contains &quot;words=99&quot;, got &quot;words=2 lines=1 chars=9&quot;"]]);
    // The table still goes to stdout for the person: the refused call says nobody was there to approve it.
    expect(result.stdout).toMatch(/pass {2}save +sample_save_note +not admitted \(unsupervised\)/);
    expect(fs.existsSync(note)).toBe(false);
  });

  it("--var overrides a default in the input and in the expectations", async () => {
    const result = await run("acceptance.calls.yaml", "--var", "phrase=one two three four five six", "--var", "words=6", "--reporter", "json");
    const report = JSON.parse(result.stdout) as { vars: Record<string, unknown>; results: { name: string; input: unknown; verdict: string }[] };
    expect(report.vars).toMatchObject({ phrase: "one two three four five six", words: "6" });
    expect(report.results[0]).toMatchObject({ name: "count", input: { text: "one two three four five six" }, verdict: "pass" });
    // The later call read the earlier one's output: "words=6 lines=1 chars=27" is three words.
    expect(report.results.map((r) => [r.name, r.verdict])).toEqual([
      ["count", "pass"],
      ["wrong", "fail"],
      ["missing", "pass"],
      ["save", "pass"],
      ["echo", "pass"],
    ]);
  });

  it("a typo is exit 2 naming the file, the line and the key, before any call runs", async () => {
    const result = await run("typo.calls.yaml");
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe('typo.calls.yaml:19: call 4 "save", key inptu: unknown key');
    expect(result.stdout).toBe("");
  });

  it("a tool that is not registered is exit 2 before any call runs", async () => {
    fs.writeFileSync(path.join(root, "gone.calls.yaml"), COLLECTION.replace("tool: sample_file_stats", "tool: no_such_tool"));
    const result = await run("gone.calls.yaml");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('gone.calls.yaml:14: call 3 "missing", key tool: no tool named no_such_tool is registered');
    expect(result.stderr).not.toContain("[1/5]");
  });

  it("approval rules decide first: a deny rule refuses the call even with --approve", async () => {
    const result = await runToolroom(["--config", "deny-notes.yaml", "collection", "run", "acceptance.calls.yaml", "--approve", "--reporter", "json"], root);
    const report = JSON.parse(result.stdout) as { results: { name: string; verdict: string; decidedBy?: string }[] };
    expect(report.results[3]).toMatchObject({ name: "save", verdict: "pass", decidedBy: 'denied by settings rule "no-notes": notes are frozen' });
    expect(fs.existsSync(note)).toBe(false);
  });

  it("calls an MCP server's tools (mcp:<server>) as any other, a JSON value of one feeding the next", async () => {
    const result = await runToolroom(["--config", "mcp.yaml", "collection", "run", "mcp.calls.yaml", "--reporter", "json"], root);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { results: { name: string; input: { b?: unknown }; verdict: string }[] };
    expect(report.results.map((r) => [r.name, r.verdict])).toEqual([
      ["weather", "pass"],
      ["sum", "pass"],
    ]);
    expect(typeof report.results[1]!.input.b).toBe("number");
  });

  it("--approve approves the confirming call as the local user: it runs, so notAdmitted: true fails", async () => {
    const result = await run("acceptance.calls.yaml", "--approve", "--reporter", "json");
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as { results: { name: string; verdict: string; failures: { key: string }[] }[] };
    expect(report.results[3]).toMatchObject({ name: "save", verdict: "fail", failures: [{ key: "notAdmitted" }] });
    expect(fs.readFileSync(note, "utf8")).toBe("words=4 lines=1 chars=19\n");
  });
});
