import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart, LanguageModelV4StreamResult } from "@ai-sdk/provider";
import { generateText, type ModelMessage, stepCountIs, streamText, tool, wrapLanguageModel } from "ai";
import { convertArrayToReadableStream, MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { INVALID_CALL_TOOL_NAME, invalidCallInput, invalidCallMessage } from "./invalid-call-tool";
import { textModeMiddleware, toolOutputText } from "./text-mode";
import type { PromptTool } from "./text-protocol/types";

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** A model reply streamed as text in 5-character deltas, as a text-mode model would send it. */
function textReply(text: string): LanguageModelV4StreamResult {
  const deltas = text.match(/[\s\S]{1,5}/g) ?? [];
  return {
    stream: convertArrayToReadableStream<LanguageModelV4StreamPart>([
      { type: "stream-start", warnings: [] },
      { type: "text-start", id: "t" },
      ...deltas.map((delta): LanguageModelV4StreamPart => ({ type: "text-delta", id: "t", delta })),
      { type: "text-end", id: "t" },
      { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage },
    ]),
  };
}

function nativeCallReply(toolName: string, input: object): LanguageModelV4StreamResult {
  return {
    stream: convertArrayToReadableStream<LanguageModelV4StreamPart>([
      { type: "stream-start", warnings: [] },
      { type: "text-start", id: "t" },
      { type: "text-delta", id: "t", delta: "I'll delete it.\n" },
      { type: "text-end", id: "t" },
      { type: "tool-call", toolCallId: "call-1", toolName, input: JSON.stringify(input) },
      { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage },
    ]),
  };
}

const notes = new Map([["n1", "buy milk"]]);
const deleteNote = tool({
  description: "Delete one note by id.",
  inputSchema: z.object({ id: z.string() }),
  execute: async ({ id }) => (notes.delete(id) ? `Deleted ${id}.` : `Error: no note ${id}.`),
});
const readFile = tool({
  description: "Read one file.",
  inputSchema: z.object({ path: z.string() }),
  execute: async ({ path }) => `contents of ${path}`,
});
const invalidCall = tool({
  description: "Reports a malformed call.",
  inputSchema: invalidCallInput,
  execute: async (input) => invalidCallMessage(input),
});

const described: PromptTool[] = [
  {
    name: "delete_note",
    description: "Delete one note by id.",
    inputJsonSchema: { type: "object", properties: { id: { type: "string" } } },
    sourcePackage: "toolroom",
    builtin: true,
  },
];

function systemText(call: LanguageModelV4CallOptions | undefined): string {
  return (call?.prompt ?? []).flatMap((m) => (m.role === "system" ? [m.content] : [])).join("\n");
}

function messageTexts(call: LanguageModelV4CallOptions | undefined) {
  return (call?.prompt ?? []).map((m) => ({
    role: m.role,
    text: m.role === "system" ? m.content : m.content.map((p) => (p.type === "text" ? p.text : `[${p.type}]`)).join(""),
  }));
}

async function partTypes(stream: AsyncIterable<{ type: string }>) {
  const types: string[] = [];
  const parts: { type: string }[] = [];
  for await (const part of stream) {
    types.push(part.type);
    parts.push(part);
  }
  return { types, parts };
}

describe("textModeMiddleware with streamText", () => {
  it("turns a parsed call into a tool call that gets a tool-approval-request exactly like a native call", async () => {
    const run = async (model: MockLanguageModelV4, wrap: boolean) => {
      const result = streamText({
        model: wrap ? wrapLanguageModel({ model, middleware: textModeMiddleware({ protocol: "action", tools: described }) }) : model,
        tools: { delete_note: deleteNote },
        toolApproval: { delete_note: "user-approval" },
        system: "You manage notes.",
        prompt: "delete note n1",
      });
      return partTypes(result.fullStream);
    };
    const textModel = new MockLanguageModelV4({ doStream: textReply('I\'ll delete it.\nACTION: delete_note(id="n1")\nDone!') });
    const nativeModel = new MockLanguageModelV4({ doStream: nativeCallReply("delete_note", { id: "n1" }) });
    const text = await run(textModel, true);
    const native = await run(nativeModel, false);

    // Delta counts differ (the text arrives in pieces); the sequence of part kinds must not.
    const collapse = (types: string[]) => types.filter((t, i) => !(t === "text-delta" && types[i - 1] === "text-delta"));
    expect(collapse(text.types)).toEqual(collapse(native.types));
    expect(text.types).toContain("tool-approval-request");
    const request = text.parts.find((p) => p.type === "tool-approval-request") as unknown as {
      toolCall: { toolName: string; input: unknown };
    };
    expect(request.toolCall).toMatchObject({ toolName: "delete_note", input: { id: "n1" } });
    expect(notes.has("n1")).toBe(true);

    // The model never saw the tools natively; it read them in the system prompt.
    const call = textModel.doStreamCalls[0];
    expect(call?.tools).toBeUndefined();
    expect(call?.toolChoice).toBeUndefined();
    expect(systemText(call)).toContain("You manage notes.\n\nYou have these tools.");
    expect(systemText(call)).toContain('1. delete_note(id="…") - Delete one note by id.');
    const deltas = text.parts.flatMap((p) => (p.type === "text-delta" ? [(p as unknown as { text: string }).text] : []));
    expect(deltas.join("")).toBe("I'll delete it.\n");
  });

  it("after approval, runs the tool and writes the call and result back as text", async () => {
    const model = new MockLanguageModelV4({
      doStream: [textReply('ACTION: delete_note(id="n1")'), textReply("The note is gone.")],
    });
    const wrapped = wrapLanguageModel({ model, middleware: textModeMiddleware({ protocol: "action", tools: described }) });
    const messages: ModelMessage[] = [{ role: "user", content: "delete note n1" }];
    const first = streamText({ model: wrapped, tools: { delete_note: deleteNote }, toolApproval: { delete_note: "user-approval" }, messages });
    const { parts } = await partTypes(first.fullStream);
    const request = parts.find((p) => p.type === "tool-approval-request") as unknown as { approvalId: string };
    messages.push(...(await first.response).messages);
    messages.push({ role: "tool", content: [{ type: "tool-approval-response", approvalId: request.approvalId, approved: true }] });

    const second = streamText({ model: wrapped, tools: { delete_note: deleteNote }, toolApproval: { delete_note: "user-approval" }, messages });
    expect(await second.text).toBe("The note is gone.");
    expect(notes.has("n1")).toBe(false);
    const prompt = messageTexts(model.doStreamCalls[1]);
    expect(prompt.slice(1)).toEqual([
      { role: "user", text: "delete note n1" },
      { role: "assistant", text: 'ACTION: delete_note(id="n1")' },
      {
        role: "user",
        text: "TOOL RESULT from delete_note:\nDeleted n1.\n\nUse this result to continue. Call another tool if needed, or provide your final answer.",
      },
    ]);
  });

  it("answers a malformed call with an error result the model corrects", async () => {
    const model = new MockLanguageModelV4({
      doStream: [
        textReply('Reading it.\nACTION: read_file("a.txt")'),
        textReply('Sorry.\nACTION: read_file(path="a.txt")'),
        textReply("It says: contents of a.txt"),
      ],
    });
    const wrapped = wrapLanguageModel({ model, middleware: textModeMiddleware({ protocol: "action" }) });
    const result = streamText({
      model: wrapped,
      tools: { read_file: readFile, [INVALID_CALL_TOOL_NAME]: invalidCall },
      stopWhen: stepCountIs(5),
      prompt: "what is in a.txt?",
    });
    expect(await result.text).toBe("It says: contents of a.txt");
    const steps = await result.steps;
    expect(steps.map((s) => s.toolCalls.map((c) => c.toolName))).toEqual([[INVALID_CALL_TOOL_NAME], ["read_file"], []]);
    const error = steps[0]?.toolResults[0]?.output;
    expect(error).toMatch(
      /^Error: Argument 1 has no name: positional arguments are not allowed.*\. Use the exact format: ACTION: tool_name\(arg1="value1", arg2=2\)$/,
    );

    // The invalid tool is never offered in the prompt; the model sees its own malformed text.
    expect(systemText(model.doStreamCalls[0])).not.toContain(INVALID_CALL_TOOL_NAME);
    const prompt = messageTexts(model.doStreamCalls[1]);
    expect(prompt.at(-2)).toEqual({ role: "assistant", text: 'Reading it.\nACTION: read_file("a.txt")' });
    expect(prompt.at(-1)?.text).toMatch(/^TOOL RESULT from read_file:\nError: Argument 1 has no name/);
  });

  it("json protocol: parses a call, and passes prose through when there are no tools", async () => {
    const model = new MockLanguageModelV4({
      doStream: [
        textReply('<tool_call>{"name": "read_file", "arguments": {"path": "b"}}</tool_call>'),
        textReply("Done."),
        textReply('ACTION: read_file(path="x") stays text without tools'),
      ],
    });
    const wrapped = wrapLanguageModel({ model, middleware: textModeMiddleware({ protocol: "json" }) });
    const result = streamText({ model: wrapped, tools: { read_file: readFile }, stopWhen: stepCountIs(3), prompt: "read b" });
    expect(await result.text).toBe("Done.");
    expect((await result.steps)[0]?.toolResults[0]?.output).toBe("contents of b");
    expect(messageTexts(model.doStreamCalls[1]).at(-2)?.text).toBe('<tool_call>{"name": "read_file", "arguments": {"path":"b"}}</tool_call>');

    const plain = streamText({ model: wrapped, prompt: "hi" });
    expect(await plain.text).toBe('ACTION: read_file(path="x") stays text without tools');
    expect(systemText(model.doStreamCalls[2])).toBe("");
  });

  it("wrapGenerate parses calls for generateText", async () => {
    const model = new MockLanguageModelV4({
      doGenerate: [
        {
          content: [{ type: "text", text: 'Sure.\nACTION: read_file(path="c")\nignored' }],
          finishReason: { unified: "stop", raw: "stop" },
          usage,
          warnings: [],
        },
        { content: [{ type: "text", text: "All done." }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] },
      ],
    });
    const wrapped = wrapLanguageModel({ model, middleware: textModeMiddleware({ protocol: "action" }) });
    const result = await generateText({ model: wrapped, tools: { read_file: readFile }, stopWhen: stepCountIs(3), prompt: "read c" });
    expect(result.text).toBe("All done.");
    expect(result.steps[0]?.text).toBe("Sure.\n");
    expect(result.steps[0]?.finishReason).toBe("tool-calls");
    expect(result.steps[0]?.toolResults[0]?.output).toBe("contents of c");
  });
});

describe("toolOutputText", () => {
  it("gives a denied call's not-admitted text as is, the way native providers send it", () => {
    expect(toolOutputText({ type: "execution-denied", reason: "Not written: the user declined the note." })).toBe("Not written: the user declined the note.");
    expect(toolOutputText({ type: "execution-denied" })).toBe("Not run: the call was denied.");
  });
});
