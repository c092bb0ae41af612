import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createModelResolver } from "@/lib/chat/models";
import { settingsSchema, type Settings } from "@/lib/settings/schema";
import { evalTurns, registryOf } from "@/lib/testing/eval-registry";
import type { ToolDefinition } from "@/lib/tools/types";
import { runEval } from "./runner";
import { parseSuite, SuiteError } from "./suite";
import { caseRegistry, renderOutput, withoutPatterns } from "./suite-tools";

let dir: string;
let settings: Settings;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-suite-tools-"));
  settings = settingsSchema.parse({ sourceRoot: dir, runsRoot: path.join(dir, "runs") });
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const echoTool: ToolDefinition = {
  name: "echo_text",
  description: "Echo the text back.",
  input: z.object({ text: z.string() }),
  execute: async ({ text }: { text: string }) => `echo: ${text}`,
};

const SUITE = `name: weather
matrix: { modes: [native, text] }
tools:
  - name: get_weather
    description: The weather in a city.
    inputSchema: { type: object, properties: { city: { type: string } }, required: [city] }
    output: "Sunny in {{city}}, {{$input}}"
cases:
  - name: declared
    prompt: 'get_weather {"city": "Paris"}'
    expect: { calls: [{ tool: get_weather, args: { city: Paris } }], only: true, answer: { contains: 'Sunny in Paris, {"city":"Paris"}' } }
  - name: own-definition
    prompt: 'get_weather {"town": "Oslo"}'
    tools:
      - name: get_weather
        description: The weather in a town, its own way.
        inputSchema: { type: object, properties: { town: { type: string } } }
        output: { forecast: rain }
    expect: { calls: [{ tool: get_weather, args: { town: Oslo } }], answer: { contains: rain } }
  - name: narrowed
    prompt: 'echo_text {"text": "hi"}'
    tools: [get_weather]
    expect: { notCalled: [echo_text] }
  - name: registered-beside
    prompt: 'echo_text {"text": "hi"}'
    expect: { calls: [{ tool: echo_text }], answer: { contains: "echo: hi" } }
`;

describe("suite-declared tools", () => {
  it("offers the suite's tools in its trials, a case's own definitions and only the tools a case lists", async () => {
    const suite = parseSuite(SUITE, "w.eval.yaml");
    const result = await runEval({ suite, settings, registry: registryOf([echoTool]), resolver: createModelResolver(settings), turnFor: evalTurns(settings) });
    const verdicts = Object.fromEntries(result.trials.map((t) => [`${t.case} ${t.mode}`, [t.verdict, ...t.reasons].join(": ")]));
    expect(verdicts).toEqual({
      "declared native": "pass",
      "declared text": "pass",
      "own-definition native": "pass",
      "own-definition text": "pass",
      "narrowed native": "pass",
      "narrowed text": "pass",
      "registered-beside native": "pass",
      "registered-beside text": "pass",
    });
    expect(result.trials.find((t) => t.case === "narrowed")?.calls).toEqual([]);
    expect(result.trials.find((t) => t.case === "declared")?.calls[0]).toMatchObject({ tool: "get_weather", outcome: "executed" });
  });

  it("gives each case the tools it lists and nothing else", () => {
    const suite = parseSuite(SUITE, "w.eval.yaml");
    const registry = registryOf([echoTool]);
    const declared = { suite: "weather", tools: suite.tools ?? [] };
    const names = (i: number) => caseRegistry(registry, declared, suite.cases[i]!).tools.map((t) => t.name);
    expect(names(0)).toEqual(["echo_text", "get_weather"]);
    expect(names(1)).toEqual(["get_weather"]);
    expect(caseRegistry(registry, declared, suite.cases[1]!).get("get_weather")?.description).toBe("The weather in a town, its own way.");
    expect(names(2)).toEqual(["get_weather"]);
    expect(caseRegistry(registry, declared, suite.cases[2]!).get("echo_text")).toBeUndefined();
    // A suite tool is never confirming and runs no one's code: nothing here needs trust.
    expect(caseRegistry(registry, declared, suite.cases[0]!).get("get_weather")).toMatchObject({ requiresConfirmation: false, readonly: true });
  });

  it("refuses, before the run, a case naming an unknown tool and a suite tool shadowing a registered one", async () => {
    const unknown = parseSuite(`name: s\ncases:\n  - { name: c, prompt: hi, tools: [nope] }\n`, "s.eval.yaml");
    const run = (suite: typeof unknown) =>
      runEval({
        suite,
        file: "s.eval.yaml",
        settings,
        registry: registryOf([echoTool]),
        resolver: createModelResolver(settings),
        turnFor: evalTurns(settings),
      });
    await expect(run(unknown)).rejects.toThrow(SuiteError);
    // Said like every other load error: the file, the case and the key.
    await expect(run(unknown)).rejects.toThrow('s.eval.yaml: case 1 "c", key tools: names nope, which is neither a tool of the suite nor a registered tool');
    const shadow = parseSuite(`name: s\ntools: [{ name: echo_text, description: d }]\ncases:\n  - { name: c, prompt: hi }\n`, "s.eval.yaml");
    await expect(run(shadow)).rejects.toThrow(/^s\.eval\.yaml: case 1 "c", key tools: the suite's tool echo_text has the name of a registered tool/);
  });

  it("refuses at load duplicate tool names and schemas that are not object schemas", () => {
    expect(() =>
      parseSuite(`name: s\ntools: [{ name: a, description: d }, { name: a, description: e }]\ncases: [{ name: c, prompt: hi }]\n`, "s.eval.yaml"),
    ).toThrow("s.eval.yaml: key tools[1].name: another tool here is named a");
    expect(() =>
      parseSuite(`name: s\ncases: [{ name: c, prompt: hi, tools: [{ name: a, description: d, inputSchema: { type: string } }] }]\n`, "s.eval.yaml"),
    ).toThrow(/s\.eval\.yaml: case 1 "c", key tools\[0\]\.inputSchema: a tool's input is an object schema/);
  });

  it("renders an output template over the input", () => {
    expect(renderOutput("{{a}} {{b.c}} {{n}} {{missing}}|", { a: "x", b: { c: "y" }, n: [1] })).toBe("x y [1] |");
    expect(renderOutput(undefined, {})).toBe("ok");
    expect(renderOutput({ ok: true }, {})).toBe('{\n  "ok": true\n}');
  });

  it("validates input without V8-run patterns, keeping an argument named pattern", () => {
    const schema = { type: "object", properties: { pattern: { type: "string", pattern: "(a+)+$" } }, patternProperties: { x: {} } };
    expect(withoutPatterns(schema)).toEqual({ type: "object", properties: { pattern: { type: "string" } } });
  });
});
