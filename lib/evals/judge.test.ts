import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createModelResolver } from "@/lib/chat/models";
import { settingsSchema, type Settings } from "@/lib/settings/schema";
import { evalTurns, registryOf } from "@/lib/testing/eval-registry";
import { startFakeOpenAI, type FakeOpenAIServer } from "@/lib/testing/openai-server";
import type { ToolDefinition } from "@/lib/tools/types";
import { assertJudgesUsable, parseJudgeReply } from "./judge";
import { assertTrialBound, EvalSizeError, judgeCalls, runEval, trialCount } from "./runner";
import { parseSuite, SuiteError } from "./suite";

const echoTool: ToolDefinition = {
  name: "echo_text",
  description: "Echo the text back.\n\nArgs: text — anything.",
  input: z.object({ text: z.string() }),
  execute: async ({ text }: { text: string }) => `echo: ${text}`,
};

/** A suite whose one case calls echo_text and is then judged by `judge` with `criteria`. */
const judged = (criteria: string, judge = "offline", call = "echo_text") =>
  `name: j\ncases:\n  - name: echo\n    prompt: "echo_text hello"\n    expect:\n      calls: [{ tool: ${call} }]\n      answer: { judge: ${JSON.stringify(criteria)}, model: ${judge} }\n`;

let dir: string;
let settings: Settings;
let server: FakeOpenAIServer | undefined;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-judge-"));
  settings = settingsSchema.parse({ sourceRoot: dir, runsRoot: path.join(dir, "runs") });
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  fs.rmSync(dir, { recursive: true, force: true });
});

function run(yaml: string, s: Settings = settings) {
  return runEval({
    suite: parseSuite(yaml, "t.eval.yaml"),
    settings: s,
    registry: registryOf([echoTool]),
    resolver: createModelResolver(s),
    turnFor: evalTurns(s),
  });
}

/** Settings with the fake OpenAI server as the judge `grader` (the offline model still answers the case). */
async function withGrader(): Promise<Settings> {
  server = await startFakeOpenAI();
  return settingsSchema.parse({
    sourceRoot: dir,
    runsRoot: path.join(dir, "runs"),
    llms: { offline: { provider: "offline" }, grader: { provider: "openai-compatible", baseURL: server.baseURL, model: "grader-1" } },
  });
}

describe("reading a judge's reply", () => {
  it("reads a JSON verdict, bare, fenced or inside a sentence, in any case", () => {
    expect(parseJudgeReply('{"verdict": "pass", "reason": "names the file"}')).toEqual({ verdict: "pass", reason: "names the file" });
    expect(parseJudgeReply('```json\n{"verdict":"FAIL","reason":"no file named"}\n```')).toEqual({ verdict: "fail", reason: "no file named" });
    expect(parseJudgeReply('Sure. {"reason": "has {braces} and \\"quotes\\"", "verdict": "Pass"} Done.')).toEqual({
      verdict: "pass",
      reason: 'has {braces} and "quotes"',
    });
  });

  it("calls anything else unreadable, saying what was wrong, and never throws", () => {
    for (const reply of ["", "PASS", "{not json", '{"verdict": "maybe", "reason": "x"}', '{"verdict": "pass"}', "[1, 2]", '{"verdict": "pass", "reason": ']) {
      const read = parseJudgeReply(reply);
      expect(read, reply).toHaveProperty("unreadable");
    }
    expect(parseJudgeReply("")).toEqual({ unreadable: "the reply is empty" });
    expect(parseJudgeReply("PASS")).toEqual({ unreadable: 'no JSON object in "PASS"' });
  });
});

describe("a suite with a judge", () => {
  it("needs a model: the suite names the case and the key", () => {
    const yaml = `name: j\ncases:\n  - { name: c1, prompt: hi, expect: { answer: { judge: "is polite" } } }\n`;
    expect(() => parseSuite(yaml, "t.eval.yaml")).toThrow(/t\.eval\.yaml: case 1 "c1", key expect\.answer\.model: a judge needs a model/);
  });

  it("fails to load when its model is not in settings llms, or is the embedding model", () => {
    const suite = parseSuite(judged("x", "gpt-judge"), "t.eval.yaml");
    expect(() => assertJudgesUsable(suite, settings, "t.eval.yaml")).toThrow(SuiteError);
    expect(() => assertJudgesUsable(suite, settings, "t.eval.yaml")).toThrow(
      't.eval.yaml: case 1 "echo", key expect.answer.model: no model named "gpt-judge" in settings llms (known: offline)',
    );
    const embedding = settingsSchema.parse({
      sourceRoot: dir,
      llms: { offline: { provider: "offline" }, emb: { provider: "openai", apiKey: "k" } },
      search: { embeddings: { type: "ref", ref: "emb" } },
    });
    expect(() => assertJudgesUsable(parseSuite(judged("x", "emb"), "t.eval.yaml"), embedding, "t.eval.yaml")).toThrow(/is the embedding model/);
    expect(() => assertJudgesUsable(parseSuite(judged("x"), "t.eval.yaml"), settings, "t.eval.yaml")).not.toThrow();
  });

  it("counts its judge calls toward evals.maxTrials", () => {
    const suite = parseSuite(judged("x"), "t.eval.yaml");
    const tight = settingsSchema.parse({ sourceRoot: dir, evals: { maxTrials: 5 } });
    expect(trialCount(suite, tight, { trials: 3 })).toBe(3);
    expect(judgeCalls(suite, tight, { trials: 3 })).toBe(3);
    expect(() => assertTrialBound(3, tight, 3)).toThrow(EvalSizeError);
    expect(() => assertTrialBound(3, tight, 3)).toThrow(/3 trials and up to 3 judge calls \(6 in all\)/);
    expect(() => assertTrialBound(3, tight, 0)).not.toThrow();
  });
});

describe("judging a trial", () => {
  it("the offline judge passes an answer with every quoted phrase and records its verdict and reason", async () => {
    const result = await run(judged('mentions "echo: hello"'));
    const [trial] = result.trials;
    expect(trial).toMatchObject({ verdict: "pass", reasons: [] });
    expect(trial!.judge).toEqual({ verdict: "pass", reason: 'the answer contains "echo: hello"', model: "offline" });
  });

  it("the offline judge fails an answer lacking a phrase: the case fails with the judge's reason", async () => {
    const result = await run(judged('says "goodbye"'));
    const [trial] = result.trials;
    expect(trial!.verdict).toBe("fail");
    expect(trial!.judge).toEqual({ verdict: "fail", reason: 'the answer lacks "goodbye"', model: "offline" });
    expect(trial!.reason).toBe('judge offline says fail: the answer lacks "goodbye"');
  });

  it("asks no judge when another check already failed (a judge call costs money)", async () => {
    const s = await withGrader();
    const result = await run(judged("anything", "grader", "other_tool"), s);
    expect(result.trials[0]!.verdict).toBe("fail");
    expect(result.trials[0]!.judge).toBeUndefined();
    expect(server!.requests).toHaveLength(0);
  });

  it("a configured provider judges through the normal path: its criteria and the answer reach it", async () => {
    const s = await withGrader();
    server!.reply({ deltas: [{ content: '{"verdict": "pass", ' }, { content: '"reason": "it echoes"}' }], finish: "stop" });
    const result = await run(judged("echoes the text", "grader"), s);
    expect(result.trials[0]).toMatchObject({ verdict: "pass", judge: { verdict: "pass", reason: "it echoes", model: "grader" } });
    const sent = JSON.stringify(server!.requests[0]!.messages);
    expect(sent).toContain("echoes the text");
    expect(sent).toContain("echo: hello");
  });

  it("a malformed judge reply fails the case with 'judge reply unreadable', not a crash", async () => {
    const s = await withGrader();
    server!.reply({ deltas: [{ content: "Looks fine to me!" }], finish: "stop" });
    const result = await run(judged("echoes the text", "grader"), s);
    expect(result.trials[0]!.verdict).toBe("fail");
    expect(result.trials[0]!.reason).toBe('judge reply unreadable: no JSON object in "Looks fine to me!"');
    expect(result.trials[0]!.judge).toMatchObject({ verdict: "unreadable", model: "grader" });
  });

  it("a judge whose provider fails makes the trial an error, with the provider's message", async () => {
    const s = await withGrader();
    server!.reply({ status: 400, error: "judge model overloaded" });
    const result = await run(judged("echoes the text", "grader"), s);
    expect(result.trials[0]!.verdict).toBe("error");
    expect(result.trials[0]!.reason).toMatch(/^judge error: .*overloaded/);
  });
});
