import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runToolroom } from "@/lib/testing/cli";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-call-rules-"));
fs.writeFileSync(path.join(root, "notes.txt"), "marker-line\n");
const config = path.join(root, "rules.yaml");
fs.writeFileSync(
  config,
  `sourceRoot: .
tools:
  run_terminal_command: { enabled: true }
approvals:
  rules:
    - { name: listing, tool: run_terminal_command, args: { command: "^(ls|git status)\\\\b" }, decision: allow, reason: listing is harmless }
    - { tool: "run_*", args: { command: "^cat\\\\b" }, decision: deny, reason: no reading notes today }
`,
);
const call = (command: string, ...extra: string[]) =>
  runToolroom(["--config", config, "call", "run_terminal_command", "--input", JSON.stringify({ command }), ...extra], root);

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe("toolroom call applies the settings' approval rules", { timeout: 90_000 }, () => {
  it("an allow rule admits the call without --yes, and says which rule did", async () => {
    const run = await call("ls");
    expect(run.stderr).toContain('allowed by settings rule "listing"');
    expect(run.stdout).toContain("notes.txt");
    expect(run.code).toBe(0);
  });

  it("a deny rule refuses even with --yes: exit 3 and the rule's reason", async () => {
    const run = await call("cat notes.txt", "--yes");
    expect(run.code).toBe(3);
    expect(run.stdout).not.toContain("marker-line");
    expect(run.stderr).toContain("no reading notes today");
  });

  it("with no matching rule the tool's own confirmation applies (no terminal: not admitted)", async () => {
    const run = await call("wc -l notes.txt");
    expect(run.code).toBe(3);
    expect(run.stdout).not.toContain("1 notes.txt");
  });

  it("input the tool's schema refuses is an invalid-input error (exit 1), not a confirmation nobody can answer", async () => {
    const run = await runToolroom(["--config", config, "call", "run_terminal_command", "--input", JSON.stringify({ cmd: "wc -l notes.txt" })], root);
    expect(run.stdout).toMatch(/^Error: invalid input for run_terminal_command/);
    expect(run.code).toBe(1);
  });

  it("a tool that asks a form with no terminal and no --yes: exit 3 and why on stderr, as for a confirmation", async () => {
    const fixtures = path.join(root, "fixtures.yaml");
    fs.writeFileSync(fixtures, `sourceRoot: .\nplugins: { paths: [${JSON.stringify(path.resolve("examples/plugins/mcp-conformance-fixtures"))}] }\n`);
    const run = await runToolroom(["--config", fixtures, "call", "test_elicitation", "--input", JSON.stringify({ message: "Who are you?" })], root);
    expect(run.stdout).toContain("action=not-admitted");
    expect(run.stderr).toContain('toolroom: test_elicitation asked "Who are you?" and there is no terminal to ask on (--yes accepts the defaults)');
    expect(run.code).toBe(3);
  });
});
