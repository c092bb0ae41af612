import os from "node:os";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createModelResolver } from "@/lib/chat/models";
import { settingsSchema, type Settings } from "@/lib/settings/schema";
import { evalTurns, registryOf } from "@/lib/testing/eval-registry";
import type { ToolDefinition } from "@/lib/tools/types";
import { judge } from "./matchers";
import { runEval } from "./runner";
import { caseSchema } from "./suite-schema";
import { parseSuite } from "./suite";

let dir: string;
let settings: Settings;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-outcomes-"));
  settings = settingsSchema.parse({ sourceRoot: dir, runsRoot: path.join(dir, "runs") });
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const echoTool: ToolDefinition = {
  name: "echo_text",
  description: "Echo the text back.",
  input: z.object({ text: z.string() }),
  execute: async ({ text }: { text: string }) => `echo: ${text}`,
};
const askingTool: ToolDefinition = {
  name: "write_thing",
  description: "Write a thing.",
  input: z.object({ label: z.string() }),
  readonly: false,
  confirm: { evaluate: () => true, notAdmitted: () => "Not run" },
  execute: async () => "written",
};

describe("call outcomes", () => {
  it("records a mocked call as mocked, not executed, and a case can require each outcome", async () => {
    const suite = parseSuite(
      `name: o
cases:
  - name: mocked
    prompt: echo_text hello
    mocks: { echo_text: canned }
    expect: { calls: [{ tool: echo_text, outcome: mocked }] }
  - name: executed
    prompt: echo_text hello
    expect: { calls: [{ tool: echo_text, outcome: executed }] }
  - name: wants-executed
    prompt: echo_text hello
    mocks: { echo_text: canned }
    expect: { calls: [{ tool: echo_text, outcome: executed }] }
  - name: not-admitted
    prompt: 'write_thing {"label": "x"}'
    expect: { calls: [{ tool: write_thing, outcome: not_admitted }] }
  - name: wants-mocked
    prompt: 'write_thing {"label": "x"}'
    expect: { calls: [{ tool: write_thing, outcome: mocked }] }
  - name: denied
    prompt: 'write_thing {"label": "x"}'
    confirm: deny
    expect: { calls: [{ tool: write_thing, outcome: denied }] }
`,
      "o.eval.yaml",
    );
    const result = await runEval({
      suite,
      settings,
      registry: registryOf([echoTool, askingTool]),
      resolver: createModelResolver(settings),
      turnFor: evalTurns(settings),
    });
    expect(result.trials.map((t) => [t.case, t.calls[0]?.outcome, t.verdict, t.reasons])).toEqual([
      ["mocked", "mocked", "pass", []],
      ["executed", "executed", "pass", []],
      ["wants-executed", "mocked", "fail", ["echo_text outcome mocked, expected executed"]],
      // The suite's spelling, in the record and the reasons alike.
      ["not-admitted", "not_admitted", "pass", []],
      ["wants-mocked", "not_admitted", "fail", ["write_thing outcome not_admitted, expected mocked"]],
      ["denied", "denied", "pass", []],
    ]);
  });

  it("records a call its tool's input schema rejects as invalid (the tool never ran), not executed", async () => {
    const suite = parseSuite(
      `name: o
tools:
  - { name: calc, description: Calculate., inputSchema: { type: object, properties: { x: { type: integer } }, required: [x] } }
cases:
  - name: wants-executed
    prompt: 'calc {"x": "notint"}'
    expect: { calls: [{ tool: calc, outcome: executed }] }
  - name: wants-invalid
    prompt: 'calc {"x": "notint"}'
    expect: { calls: [{ tool: calc, outcome: invalid }] }
  - name: valid
    prompt: 'calc {"x": 2}'
    expect: { calls: [{ tool: calc, outcome: executed }] }
`,
      "o.eval.yaml",
    );
    const result = await runEval({ suite, settings, registry: registryOf([]), resolver: createModelResolver(settings), turnFor: evalTurns(settings) });
    expect(result.trials.map((t) => [t.case, t.calls[0]?.outcome, t.verdict, t.reasons])).toEqual([
      ["wants-executed", "invalid", "fail", ["calc outcome invalid, expected executed"]],
      ["wants-invalid", "invalid", "pass", []],
      ["valid", "executed", "pass", []],
    ]);
  });

  it("judges the outcome with the arguments", () => {
    const c = caseSchema.parse({ name: "c", prompt: "p", expect: { calls: [{ tool: "t", args: { a: 1 }, outcome: "executed" }] } });
    expect(judge(c, { calls: [{ tool: "t", input: { a: 1 }, outcome: "executed" }], answer: "", steps: 1 }).pass).toBe(true);
    expect(judge(c, { calls: [{ tool: "t", input: { a: 2 }, outcome: "executed" }], answer: "", steps: 1 }).reasons).toEqual(["t called with a 2, expected 1"]);
    expect(judge(c, { calls: [{ tool: "t", input: { a: 1 }, outcome: "denied" }], answer: "", steps: 1 }).reasons).toEqual([
      "t outcome denied, expected executed",
    ]);
  });
});
