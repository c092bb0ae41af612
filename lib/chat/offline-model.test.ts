import { type LanguageModel, stepCountIs, streamText, tool, wrapLanguageModel } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { chooseTool, createOfflineModel, OFFLINE_MODEL_LABEL, type OfferedTool } from "./offline-model";
import { textModeMiddleware } from "./text-mode";
import { TEXT_PROTOCOLS, type TextProtocol } from "./text-protocol/types";
import { buildToolPrompt, readToolPrompt } from "./text-protocol/prompt";

const calls: { tool: string; input: unknown }[] = [];
const tools = {
  list_files: tool({
    description: "List files under a path.",
    inputSchema: z.object({ path: z.string() }),
    execute: async (input) => {
      calls.push({ tool: "list_files", input });
      return input.path === "missing" ? "Error: no such directory: missing" : "a.ts\nb.ts\n```weird```";
    },
  }),
  read_file: tool({
    description: "Read a file.",
    inputSchema: z.object({ path: z.string() }),
    execute: async ({ path }) => `# ${path}\nhello`,
  }),
  run_terminal_command: tool({
    description: "Run one allowlisted command.",
    inputSchema: z.object({ command: z.string() }),
    execute: async ({ command }) => `ran ${command}`,
  }),
};

type Mode = "native" | TextProtocol;

function modelFor(mode: Mode): LanguageModel {
  const model = createOfflineModel();
  return mode === "native" ? model : wrapLanguageModel({ model, middleware: textModeMiddleware({ protocol: mode }) });
}

describe.each<Mode>(["native", ...TEXT_PROTOCOLS])("offline model through streamText (%s)", (mode) => {
  it("calls a tool chosen from the message, then answers from its result", async () => {
    calls.length = 0;
    const result = streamText({ model: modelFor(mode), tools, stopWhen: stepCountIs(4), prompt: "please list files in lib" });
    const text = await result.text;
    const steps = await result.steps;
    expect(steps).toHaveLength(2);
    expect(steps[0]?.toolCalls.map((c) => [c.toolName, c.input])).toEqual([["list_files", { path: "lib" }]]);
    expect(steps[0]?.text.trimEnd()).toBe("I'll call `list_files` for this.");
    expect(steps[0]?.finishReason).toBe("tool-calls");
    expect(calls).toEqual([{ tool: "list_files", input: { path: "lib" } }]);
    expect(text).toBe("Here is what `list_files` returned:\n\n````\na.ts\nb.ts\n```weird```\n````");
    expect(steps[1]?.finishReason).toBe("stop");
  });

  it("says so plainly when the tool reports an error", async () => {
    const result = streamText({ model: modelFor(mode), tools, stopWhen: stepCountIs(4), prompt: "list files in missing" });
    expect(await result.text).toBe("`list_files` reported an error:\n\n> Error: no such directory: missing");
  });

  it("asks for approval like any model, and reports a denial", async () => {
    const result = streamText({
      model: modelFor(mode),
      tools,
      toolApproval: { run_terminal_command: "user-approval" },
      prompt: "run `ls -la`",
    });
    const parts: { type: string; toolCall?: { toolName: string; input: unknown } }[] = [];
    for await (const part of result.fullStream) parts.push(part);
    const request = parts.find((p) => p.type === "tool-approval-request");
    expect(request?.toolCall).toMatchObject({ toolName: "run_terminal_command", input: { command: "ls -la" } });
  });

  it("answers plainly, listing what it can do, when no tool fits", async () => {
    const result = streamText({ model: modelFor(mode), tools, prompt: "what's the weather?" });
    const text = await result.text;
    expect(text).toContain("offline scripted model");
    expect(text).toContain('- "list files in lib"');
    expect(text).toContain("Tools in this chat: `list_files`, `read_file`, `run_terminal_command`.");
  });
});

describe("offline model", () => {
  it("has a label that says it is scripted", () => {
    const model = createOfflineModel();
    expect([model.provider, model.modelId, OFFLINE_MODEL_LABEL]).toEqual(["offline", "scripted", "Offline (scripted)"]);
  });

  it("streams slowly when asked, and stops on abort", async () => {
    const countDeltas = async (abortAfter: number) => {
      const controller = new AbortController();
      const result = streamText({ model: createOfflineModel({ slowDelayMs: 5 }), prompt: "tell me about yourself slowly", abortSignal: controller.signal });
      let deltas = 0;
      try {
        for await (const part of result.fullStream) if (part.type === "text-delta" && ++deltas === abortAfter) controller.abort();
      } catch {
        // an abort may surface as an error; either way the stream must end early
      }
      return deltas;
    };
    const whole = await countDeltas(Infinity);
    expect(whole).toBeGreaterThan(4);
    // Aborted after the third delta, the stream ends there (at most one delta already on its way).
    expect(await countDeltas(3)).toBeLessThanOrEqual(4);

    const model = createOfflineModel({ slowDelayMs: 0 });
    const full = await model.doGenerate({ prompt: [{ role: "user", content: [{ type: "text", text: "hi slowly" }] }] });
    const text = full.content.find((c) => c.type === "text");
    expect(text?.type === "text" && text.text.length).toBeGreaterThan(60 * 8 - 100);
  });
});

describe("chooseTool", () => {
  const offered: OfferedTool[] = [
    { name: "list_files", argNames: ["path"] },
    { name: "read_file", argNames: ["path"] },
    { name: "grep_code", argNames: ["pattern", "path"] },
    { name: "search_code", argNames: ["query"] },
    { name: "list_runs", argNames: [] },
    { name: "run_terminal_command", argNames: ["command"] },
    { name: "read_fabric_counters", argNames: ["node"] },
  ];
  it.each([
    ["list files in lib", "list_files", { path: "lib" }],
    ["List the files.", "list_files", { path: "." }],
    ["read README.md", "read_file", { path: "README.md" }],
    ["open `lib/chat/engine.ts` please", "read_file", { path: "lib/chat/engine.ts" }],
    ["grep TODO", "grep_code", { pattern: "TODO" }],
    ['search for "tool registry"', "search_code", { query: "tool registry" }],
    ["list runs", "list_runs", {}],
    ["show me all runs", "list_runs", {}],
    ["run `ls -la`", "run_terminal_command", { command: "ls -la" }],
    ["run command wc -l README.md", "run_terminal_command", { command: "wc -l README.md" }],
    ['use read_fabric_counters {"node": "gpu-01"}', "read_fabric_counters", { node: "gpu-01" }],
    ["call read_fabric_counters on gpu-02", "read_fabric_counters", { node: "gpu-02" }],
    ["read_file README.md", "read_file", { path: "README.md" }],
  ])("%s → %s %j", (message, toolName, input) => {
    expect(chooseTool(message, offered)).toEqual({ toolName, input });
  });

  it("finds a JSON object after braces that are not one", () => {
    expect(chooseTool('use read_fabric_counters {not json} {"node": "gpu-03"}', offered)).toEqual({
      toolName: "read_fabric_counters",
      input: { node: "gpu-03" },
    });
  });

  // Each was quadratic: 80 KB took seconds to minutes, and a test of it timed out.
  it("reads huge pathological messages in linear time", () => {
    const braces = "{".repeat(80_000);
    expect(chooseTool(`read_file ${braces}`, offered)).toEqual({ toolName: "read_file", input: { path: braces } });
    const nested = `${'{"a":'.repeat(16_000)}x${"}".repeat(16_000)}`;
    // Every brace opens a balanced span that is not JSON; the first quoted word is the argument.
    expect(chooseTool(`read_file ${nested}`, offered)).toEqual({ toolName: "read_file", input: { path: "a" } });
    const commas = `${",".repeat(80_000)}x`;
    expect(chooseTool(`grep ${commas}`, offered)).toEqual({ toolName: "grep_code", input: { pattern: commas } });
  });

  it("finds nothing without a fitting, available tool", () => {
    expect(chooseTool("hello there", offered)).toBeUndefined();
    expect(chooseTool("list runs", [{ name: "list_files", argNames: ["path"] }])).toBeUndefined();
  });
});

describe("chooseTool by words (plugin tools the intents do not know)", () => {
  const fileStats = {
    name: "sample_file_stats",
    argNames: ["path"],
    description: "Count the words, lines and characters of a text file inside the source root.",
    required: ["path"],
    pathArgs: ["path"],
  };
  const wordCount = {
    name: "sample_word_count",
    argNames: ["text"],
    description: "Count the words, lines and characters of a piece of text.",
    required: ["text"],
  };
  const countWords = { name: "count_words", argNames: ["path"], description: "Count words in a file.", required: ["path"] };

  it("matches the message's words against names and descriptions, filling a path argument from the message", () => {
    expect(chooseTool("count the words in README.md", [{ name: "list_files", argNames: ["path"] }, wordCount, fileStats])).toEqual({
      toolName: "sample_file_stats",
      input: { path: "README.md" },
    });
    // A name that says it wins over a description that does.
    expect(chooseTool("count the words in README.md", [fileStats, countWords])).toEqual({ toolName: "count_words", input: { path: "README.md" } });
  });

  it("leaves a tool whose required arguments it cannot fill, and one shared word is not enough", () => {
    expect(chooseTool("count the words please", [fileStats, wordCount])).toBeUndefined();
    expect(chooseTool("count to ten", [countWords])).toBeUndefined();
  });

  it("reads the summaries of a text-mode prompt too", () => {
    const prompt = buildToolPrompt("json", [
      {
        name: "count_words",
        description: "Count words in a file.",
        inputJsonSchema: { type: "object", properties: { path: { type: "string" } } },
        sourcePackage: "p",
        builtin: false,
      },
    ]);
    const read = readToolPrompt(prompt);
    expect(read?.tools).toEqual([{ name: "count_words", args: { path: "…" }, summary: "Count words in a file." }]);
  });
});
