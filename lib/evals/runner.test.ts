import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { UIMessage } from "ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createModelResolver } from "@/lib/chat/models";
import { cellView } from "@/lib/artifacts/view/view-model";
import { compareMatrices, discoverRuns, readEnvFile, readMatrixFile, readRunEntry, summarizeRun } from "@/lib/artifacts";
import { settingsSchema, type Settings } from "@/lib/settings/schema";
import { evalTurns, registryOf } from "@/lib/testing/eval-registry";
import { startFakeOpenAI } from "@/lib/testing/openai-server";
import type { ToolDefinition } from "@/lib/tools/types";
import { readEvalCasesFile } from "@/lib/artifacts/eval-cases";
import { readEvalTranscript } from "@/lib/artifacts/eval-transcript";
import { newRunDir, writeEvalRun } from "./results";
import { runEval, type RunEvalOptions } from "./runner";
import { openTranscripts } from "./transcript";
import { parseSuite } from "./suite";

let dir: string;
let settings: Settings;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-evals-"));
  settings = settingsSchema.parse({ sourceRoot: dir, runsRoot: path.join(dir, "runs") });
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A confirming tool whose only effect is a marker file: its existence says the tool executed. */
function markerTool(marker: string): ToolDefinition {
  return {
    name: "touch_marker",
    description: "Create the marker file.\n\nArgs: label — any text.",
    input: z.object({ label: z.string() }),
    readonly: false,
    confirm: { evaluate: () => true, notAdmitted: (_input, why) => `Not run: ${why.kind}` },
    execute: async () => {
      fs.writeFileSync(marker, "ran");
      return "marker written";
    },
  };
}

const echoTool: ToolDefinition = {
  name: "echo_text",
  description: "Echo the text back.\n\nArgs: text — anything.",
  input: z.object({ text: z.string() }),
  execute: async ({ text }: { text: string }) => `echo: ${text}`,
};

async function run(yaml: string, tools: ToolDefinition[], choice: Pick<RunEvalOptions, "modes" | "transcripts" | "concurrency" | "store" | "onTrial"> = {}) {
  return runEval({
    suite: parseSuite(yaml, "t.eval.yaml"),
    settings,
    registry: registryOf(tools),
    resolver: createModelResolver(settings),
    turnFor: evalTurns(settings),
    ...choice,
  });
}

describe("the eval runner", () => {
  it.each(["notAdmitted", "deny", "(default)"])("never executes a confirming tool when the case says %s", async (policy) => {
    const marker = path.join(os.tmpdir(), `toolroom-eval-marker-${crypto.randomUUID()}`);
    const confirm = policy === "(default)" ? "" : `\n    confirm: ${policy}`;
    try {
      const result = await run(
        `name: m\nmatrix: { modes: [native, text] }\ncases:\n  - name: c\n    prompt: 'touch_marker {"label": "x"}'${confirm}\n    expect: { calls: [{ tool: touch_marker }] }\n`,
        [markerTool(marker)],
      );
      expect(fs.existsSync(marker)).toBe(false);
      expect(result.trials.map((t) => t.verdict)).toEqual(["pass", "pass"]);
      expect(result.trials[0]?.calls[0]).toMatchObject(
        policy === "deny" ? { outcome: "denied", decidedBy: "eval" } : { outcome: "not_admitted", decidedBy: "unsupervised" },
      );
    } finally {
      fs.rmSync(marker, { force: true });
    }
  });

  it("executes a confirming tool when the case approves it, recording the eval's decision", async () => {
    const marker = path.join(os.tmpdir(), `toolroom-eval-marker-${crypto.randomUUID()}`);
    try {
      const result = await run(
        `name: m\ncases:\n  - name: c\n    prompt: 'touch_marker {"label": "x"}'\n    confirm: approve\n    expect: { calls: [{ tool: touch_marker }], answer: { contains: marker written } }\n`,
        [markerTool(marker)],
      );
      expect(fs.readFileSync(marker, "utf8")).toBe("ran");
      expect(result.trials[0]).toMatchObject({ verdict: "pass", calls: [{ tool: "touch_marker", outcome: "executed", decidedBy: "eval" }] });
    } finally {
      fs.rmSync(marker, { force: true });
    }
  });

  it("answers a mocked tool with its mock, and a mocked confirming tool still asks", async () => {
    const marker = path.join(os.tmpdir(), `toolroom-eval-marker-${crypto.randomUUID()}`);
    const result = await run(
      `name: m
cases:
  - name: mocked
    prompt: echo_text hello
    mocks: { echo_text: "canned reply" }
    expect: { answer: { contains: canned reply } }
  - name: mocked-confirming
    prompt: 'touch_marker {"label": "x"}'
    mocks: { touch_marker: "mocked marker" }
    expect: { answer: { contains: "Not run" } }
`,
      [echoTool, markerTool(marker)],
    );
    expect(result.trials.map((t) => [t.case, t.verdict, t.reasons])).toEqual([
      ["mocked", "pass", []],
      ["mocked-confirming", "pass", []],
    ]);
    expect(fs.existsSync(marker)).toBe(false);
  });

  it("records failures with reasons, and runs K trials at a time in a stable order", async () => {
    const result = await runEval({
      suite: parseSuite(
        `name: m\nmatrix: { trials: 3 }\ncases:\n  - { name: ok, prompt: echo_text hi, expect: { calls: [{ tool: echo_text, args: { text: hi } }] } }\n  - { name: wrong, prompt: echo_text bye, expect: { calls: [{ tool: echo_text, args: { text: hi } }] } }\n`,
        "t.eval.yaml",
      ),
      settings,
      registry: registryOf([echoTool]),
      resolver: createModelResolver(settings),
      turnFor: evalTurns(settings),
      concurrency: 4,
    });
    expect(result.trials.map((t) => `${t.case}#${t.trial}:${t.verdict}`)).toEqual([
      "ok#1:pass",
      "ok#2:pass",
      "ok#3:pass",
      "wrong#1:fail",
      "wrong#2:fail",
      "wrong#3:fail",
    ]);
    expect(result.trials[3]?.reason).toBe('echo_text called with text "bye", expected "hi"');
  });

  it("refuses a model the settings do not have before running anything", async () => {
    await expect(
      runEval({
        suite: parseSuite(`name: m\nmatrix: { models: [nope] }\ncases: [{ name: c, prompt: hi }]\n`, "t.eval.yaml"),
        settings,
        registry: registryOf([]),
        resolver: createModelResolver(settings),
        turnFor: evalTurns(settings),
      }),
    ).rejects.toThrow(/no model named "nope"/);
  });
});

describe("a model that gets some cases wrong (the loopback provider)", () => {
  it("puts it beside the offline model, one cell each, with its mismatch as the reason", async () => {
    const server = await startFakeOpenAI();
    try {
      const call = (name: string, args: object) => ({
        deltas: [{ tool_calls: [{ index: 0, id: `call-${name}`, type: "function" as const, function: { name, arguments: JSON.stringify(args) } }] }],
        finish: "tool_calls" as const,
      });
      const done = { deltas: [{ content: "Done." }], finish: "stop" as const };
      // Case "right": echo_text as asked; case "wrong": it picks another tool.
      server.reply(call("echo_text", { text: "hi" }), done, call("other_tool", {}), done);
      const loop = settingsSchema.parse({
        sourceRoot: dir,
        runsRoot: path.join(dir, "runs"),
        llms: { offline: { provider: "offline" }, loop: { provider: "openai-compatible", baseURL: server.baseURL, model: "loop-1" } },
      });
      const other: ToolDefinition = { ...echoTool, name: "other_tool", description: "Another tool.", input: z.object({}) };
      const result = await runEval({
        suite: parseSuite(
          `name: l\nmatrix: { models: [offline, loop] }\ncases:\n  - { name: right, prompt: echo_text hi, expect: { calls: [{ tool: echo_text }] } }\n  - { name: wrong, prompt: echo_text hi, expect: { calls: [{ tool: echo_text }] } }\n`,
          "t.eval.yaml",
        ),
        settings: loop,
        registry: registryOf([echoTool, other]),
        resolver: createModelResolver(loop),
        turnFor: evalTurns(loop),
        concurrency: 1,
      });
      expect(result.trials.map((t) => [t.cell, t.case, t.verdict, t.reason])).toEqual([
        ["offline · native", "right", "pass", null],
        ["offline · native", "wrong", "pass", null],
        ["loop · native", "right", "pass", null],
        ["loop · native", "wrong", "fail", "called other_tool instead of echo_text"],
      ]);
    } finally {
      await server.close();
    }
  });
});

describe("a provider that refuses (the loopback provider's content_filter)", () => {
  it("fails the case with the refusal as its reason, though the words so far match", async () => {
    const server = await startFakeOpenAI();
    try {
      server.reply({ deltas: [{ content: "I can" }], finish: "content_filter" });
      const loop = settingsSchema.parse({
        sourceRoot: dir,
        runsRoot: path.join(dir, "runs"),
        llms: { loop: { provider: "openai-compatible", baseURL: server.baseURL, model: "loop-1" } },
      });
      const result = await runEval({
        suite: parseSuite(`name: r\nmatrix: { models: [loop] }\ncases:\n  - { name: c, prompt: hi, expect: { answer: { contains: I can } } }\n`, "t.eval.yaml"),
        settings: loop,
        registry: registryOf([echoTool]),
        resolver: createModelResolver(loop),
        turnFor: evalTurns(loop),
      });
      expect(result.trials.map((t) => [t.verdict, t.reason])).toEqual([["fail", expect.stringMatching(/^Refused: .*declined to answer/)]]);
    } finally {
      await server.close();
    }
  });
});

describe("a provider whose reply breaks off mid-call (the loopback provider's cut)", () => {
  it("stores the trial with the call closed as not run", async () => {
    const server = await startFakeOpenAI();
    try {
      server.reply({
        deltas: [{ tool_calls: [{ index: 0, id: "call_cut", type: "function", function: { name: "echo_text", arguments: '{"te' } }] }],
        then: "cut",
      });
      const loop = settingsSchema.parse({
        sourceRoot: dir,
        runsRoot: path.join(dir, "runs"),
        llms: { loop: { provider: "openai-compatible", baseURL: server.baseURL, model: "loop-1" } },
      });
      const stored: UIMessage[][] = [];
      const result = await runEval({
        suite: parseSuite(
          `name: b\nmatrix: { models: [loop] }\ncases:\n  - { name: c, prompt: hi, expect: { calls: [{ tool: echo_text }] } }\n`,
          "t.eval.yaml",
        ),
        settings: loop,
        registry: registryOf([echoTool]),
        resolver: createModelResolver(loop),
        turnFor: evalTurns(loop),
        store: { save: async ({ messages }) => void stored.push(messages) },
      });
      expect(result.trials.map((t) => t.verdict)).toEqual(["error"]);
      const call = stored[0]?.at(-1)?.parts.find((p) => "toolCallId" in p);
      expect(call).toMatchObject({ state: "output-error", errorText: expect.stringMatching(/^Not run: the provider's reply broke off/) });
    } finally {
      await server.close();
    }
  });
});

describe("eval results as runs", () => {
  it("writes a run the artifact readers accept: a cell per mode, hints, cases and env", async () => {
    const yaml = `name: readback
matrix: { modes: [native, text], trials: 2 }
cases:
  - { name: ok, prompt: echo_text hi, expect: { calls: [{ tool: echo_text }] } }
  - { name: wrong, prompt: echo_text hi, expect: { calls: [{ tool: other_tool }] } }
`;
    const result = await run(yaml, [echoTool]);
    const facts = {
      models: { offline: { provider: "offline", modelId: "scripted" } },
      providerVersions: { ai: "7" },
      settingsHash: "abc",
      toolroomVersion: "0.1.0",
    };
    const runDir = writeEvalRun(settings.runsRoot, { name: "readback", file: "/x/t.eval.yaml", text: yaml }, facts, result);
    expect(path.relative(settings.runsRoot, runDir)).toMatch(/^evals\/readback\/\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}$/);

    const matrix = readMatrixFile(path.join(runDir, "matrix.json"));
    if (!matrix.ok) throw new Error(matrix.error);
    expect(matrix.data.missingFields).toEqual([]);
    expect(matrix.data.warnings).toEqual([]);
    expect(matrix.data.cells.map((c) => [c.name, c.trials, c.passed_count, c.failed_count, c.failure_rate, c.mitigations, c.environment])).toEqual([
      ["offline · native", 4, 2, 2, 0.5, ["native"], "offline"],
      ["offline · text · json", 4, 2, 2, 0.5, ["text", "json"], "offline"],
    ]);
    expect(matrix.data.cells[0]?.failure_hints).toEqual([{ text: "called echo_text instead of other_tool", count: 2 }]);
    expect(matrix.data.cells[0]?.extra.failing_cases).toEqual([
      { case: "wrong", trial: 1, verdict: "fail", reason: "called echo_text instead of other_tool", chat_id: null },
      { case: "wrong", trial: 2, verdict: "fail", reason: "called echo_text instead of other_tool", chat_id: null },
    ]);
    expect(matrix.data.cells[0]?.p90_step_time_ms).toBeGreaterThan(0);

    expect(cellView(matrix.data.cells[0]!, matrix.data.header.baseline_cell).failingCases).toEqual([
      { case: "wrong", trial: 1, verdict: "fail", reason: "called echo_text instead of other_tool", chatId: null },
      { case: "wrong", trial: 2, verdict: "fail", reason: "called echo_text instead of other_tool", chatId: null },
    ]);

    const env = readEnvFile(path.join(runDir, "env.json"));
    if (!env.ok) throw new Error(env.error);
    expect(env.data).toMatchObject({ kind: "probe", missingFields: [], warnings: [] });

    const cases = JSON.parse(fs.readFileSync(path.join(runDir, "cases.json"), "utf8")) as { trials: { case: string; verdict: string; calls: unknown[] }[] };
    expect(cases.trials).toHaveLength(8);
    expect(cases.trials[0]).toMatchObject({ case: "ok", verdict: "pass", calls: [{ tool: "echo_text", input: { text: "hi" }, outcome: "executed" }] });

    const entry = discoverRuns(settings.runsRoot).runs.find((r) => r.dir === runDir);
    if (!entry) throw new Error("the run was not discovered");
    const summary = summarizeRun(readRunEntry(entry));
    expect(summary).toMatchObject({ layout: "triage", ticket: "evals", workload: "readback", cellCount: 2, failedCellCount: 2, verdict: "fail", errors: [] });

    const again = writeEvalRun(settings.runsRoot, { name: "readback", file: "/x/t.eval.yaml", text: yaml }, facts, result);
    expect(again).toBe(`${runDir}-2`);
    const other = readMatrixFile(path.join(again, "matrix.json"));
    if (!other.ok) throw new Error(other.error);
    expect(compareMatrices(matrix.data, other.data).cells.map((c) => c.name)).toEqual(["offline · native", "offline · text · json"]);
  });
});

describe("rules and bounds", () => {
  it("a settings deny for a tool stops a case that says confirm: approve (the rules decide before the case)", async () => {
    const marker = path.join(os.tmpdir(), `toolroom-eval-marker-${crypto.randomUUID()}`);
    const ruled = settingsSchema.parse({ ...settings, approvals: { rules: [{ tool: "touch_marker", decision: "deny", reason: "never" }] } });
    try {
      const result = await runEval({
        suite: parseSuite(`name: m\ncases:\n  - name: c\n    prompt: 'touch_marker {"label": "x"}'\n    confirm: approve\n`, "t.eval.yaml"),
        settings: ruled,
        registry: registryOf([markerTool(marker)]),
        resolver: createModelResolver(ruled),
        turnFor: evalTurns(ruled),
      });
      expect(fs.existsSync(marker)).toBe(false);
      expect(result.trials[0]?.calls[0]).toMatchObject({ tool: "touch_marker", outcome: "denied", decidedBy: "rule" });
    } finally {
      fs.rmSync(marker, { force: true });
    }
  });

  it("counts a model named twice once, and refuses a run above evals.maxTrials with the number before any trial", async () => {
    const small = settingsSchema.parse({ ...settings, evals: { maxTrials: 10 } });
    const suite = parseSuite(
      `name: m\nmatrix: { models: [offline, offline], trials: 6 }\ncases: [{ name: a, prompt: hi }, { name: b, prompt: hi }]\n`,
      "t.eval.yaml",
    );
    let started = 0;
    await expect(
      runEval({
        suite,
        settings: small,
        registry: registryOf([]),
        resolver: createModelResolver(small),
        turnFor: evalTurns(small),
        onTrial: () => void started++,
      }),
    ).rejects.toThrow("This eval would run 12 trials, above the limit of 10 (settings evals.maxTrials)");
    expect(started).toBe(0);
    const fits = await runEval({
      suite,
      settings: small,
      registry: registryOf([]),
      resolver: createModelResolver(small),
      turnFor: evalTurns(small),
      trials: 5,
    });
    expect(fits.cells.map((c) => c.name)).toEqual(["offline · native"]);
    expect(fits.trials).toHaveLength(10);
  });

  it("stops taking trials when stopped, keeps what finished (partial), and a resumed run runs only the missing ones", async () => {
    const suite = parseSuite(`name: m\nmatrix: { trials: 5 }\ncases: [{ name: a, prompt: echo_text hi }, { name: b, prompt: echo_text hi }]\n`, "t.eval.yaml");
    const stop = new AbortController();
    const common = { suite, settings, registry: registryOf([echoTool]), resolver: createModelResolver(settings), turnFor: evalTurns(settings), concurrency: 1 };
    const first = await runEval({ ...common, stop: stop.signal, onTrial: (_r, done) => void (done === 3 && stop.abort()) });
    expect(first).toMatchObject({ total: 10, partial: true });
    expect(first.trials.map((t) => `${t.case}${t.trial}`)).toEqual(["a1", "a2", "a3"]);
    const ran: string[] = [];
    const second = await runEval({ ...common, finished: first.trials, onTrial: (r) => void ran.push(`${r.case}${r.trial}`) });
    expect(ran).toEqual(["a4", "a5", "b1", "b2", "b3", "b4", "b5"]);
    expect(second).toMatchObject({ total: 10, partial: false });
    expect(second.trials.map((t) => `${t.case}${t.trial}`)).toEqual(["a1", "a2", "a3", "a4", "a5", "b1", "b2", "b3", "b4", "b5"]);
  });
});

describe("tokens, traces and expectations of trials", () => {
  it("records each trial's tokens from the provider's usage, hands the store its trace, and writes the cases' expectations", async () => {
    const yaml = `name: tokens
cases:
  - { name: ok, prompt: echo_text hi, expect: { calls: [{ tool: echo_text, args: { text: hi } }] } }
`;
    const suite = parseSuite(yaml, "t.eval.yaml");
    const traces: unknown[][] = [];
    const result = await runEval({
      suite,
      settings,
      registry: registryOf([echoTool]),
      resolver: createModelResolver(settings),
      turnFor: evalTurns(settings),
      store: { save: async ({ trace }) => void traces.push(trace) },
    });
    const [t] = result.trials;
    // The offline model reports a deterministic usage (4 characters a token): a number, not null.
    expect(t!.input_tokens).toBeGreaterThan(0);
    expect(t!.output_tokens).toBeGreaterThan(0);
    expect(traces[0]!.length).toBeGreaterThan(0);
    expect(traces[0]![0]).toMatchObject({ outcome: "finished", inputTokens: expect.any(Number) });
    const facts = { models: {}, providerVersions: {}, settingsHash: "x", toolroomVersion: "0" };
    const runDir = writeEvalRun(settings.runsRoot, { name: "tokens", file: "/x/t.eval.yaml", text: yaml, cases: suite.cases }, facts, result);
    const cases = JSON.parse(fs.readFileSync(path.join(runDir, "cases.json"), "utf8")) as { expectations: Record<string, { calls: unknown[] }> };
    expect(cases.expectations.ok!.calls).toEqual([{ tool: "echo_text", args: { text: "hi" }, argsMatch: "partial" }]);
  });

  it("keeps each trial's transcript in the run folder when no store keeps its chat, and the runs browser's reader reads it back", async () => {
    const yaml = `name: transcripts
matrix: { modes: [native, text], trials: 2 }
cases:
  - { name: ok, prompt: echo_text hi, expect: { calls: [{ tool: echo_text, args: { text: hi } }] } }
`;
    const suite = parseSuite(yaml, "t.eval.yaml");
    const runDir = newRunDir(settings.runsRoot, suite.name, new Date());
    const transcripts = openTranscripts(runDir);
    const result = await run(yaml, [echoTool], { transcripts });
    transcripts.close();
    expect(result.trials.map((t) => [t.cell, t.trial, t.chat_id, t.transcript?.file.startsWith("transcripts/")])).toEqual([
      ["offline · native", 1, null, true],
      ["offline · native", 2, null, true],
      ["offline · text · json", 1, null, true],
      ["offline · text · json", 2, null, true],
    ]);
    const facts = { models: {}, providerVersions: {}, settingsHash: "x", toolroomVersion: "0" };
    writeEvalRun(settings.runsRoot, { name: suite.name, file: "/x/t.eval.yaml", text: yaml, cases: suite.cases }, facts, result, runDir);
    expect(fs.readdirSync(path.join(runDir, "transcripts"))).toHaveLength(2);
    const cases = readEvalCasesFile(path.join(runDir, "cases.json"), "cases.json");
    if (!cases.ok) throw new Error(cases.error);
    const read = readEvalTranscript(runDir, cases.data, "ok", "offline · text · json", 2);
    if (!read.ok) throw new Error(read.error);
    const [user, assistant] = read.view.messages;
    expect(user).toMatchObject({ role: "user", parts: [{ type: "text", text: "echo_text hi" }] });
    expect(assistant!.parts.find((p) => p.type === "tool-echo_text")).toMatchObject({ state: "output-available", input: { text: "hi" }, output: "echo: hi" });
    expect(read.view.steps.length).toBeGreaterThan(0);
    expect(read.view.steps[0]).toMatchObject({ toolMode: "text", protocol: "json", outcome: "finished" });
    // The text mode's system prompt, as the provider got it: what the model saw.
    expect(read.view.steps[0]!.raw.request.system).toContain("echo_text");
    expect(read.view.usage).toEqual({ inputTokens: result.trials[3]!.input_tokens, outputTokens: result.trials[3]!.output_tokens });
  });

  it("hands the store each trial's record with its chat, and reports the trial only once the store has kept it", async () => {
    const events: string[] = [];
    const result = await run(`name: order\nmatrix: { trials: 2 }\ncases:\n  - { name: ok, prompt: echo_text hi }\n`, [echoTool], {
      concurrency: 1,
      store: {
        save: async ({ chat, record }) => {
          events.push(`save ${record.trial} ${record.chat_id === chat.id ? "names its chat" : `names ${record.chat_id}`}`);
          // A slow commit: the trial must not be reported before it ends.
          await new Promise((resolve) => setTimeout(resolve, 20));
          events.push(`kept ${record.trial}`);
        },
      },
      onTrial: (record) => void events.push(`onTrial ${record.trial}`),
    });
    expect(events).toEqual(["save 1 names its chat", "kept 1", "onTrial 1", "save 2 names its chat", "kept 2", "onTrial 2"]);
    expect(result.trials.map((t) => t.chat_id)).toEqual([expect.stringMatching(/^eval-/), expect.stringMatching(/^eval-/)]);
  });
});
