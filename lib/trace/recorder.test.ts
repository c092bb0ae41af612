import { APICallError, type LanguageModelV4 } from "@ai-sdk/provider";
import { simulateReadableStream, stepCountIs, streamText, tool, wrapLanguageModel } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createOfflineModel } from "@/lib/chat/offline-model";
import { providerStreamMiddleware } from "@/lib/chat/provider-stream";
import { textModeMiddleware } from "@/lib/chat/text-mode";
import { createTurnTrace, type TurnTrace } from "./recorder";

const tools = {
  list_files: tool({ description: "List files under a path.", inputSchema: z.object({ path: z.string() }), execute: async () => "a.ts\nb.ts" }),
};

function traced(model: LanguageModelV4, trace: TurnTrace, text: boolean) {
  const tapped = wrapLanguageModel({ model, middleware: providerStreamMiddleware(trace.tap) });
  return text ? wrapLanguageModel({ model: tapped, middleware: textModeMiddleware({ protocol: "json", onParse: trace.onParse }) }) : tapped;
}

async function run(model: LanguageModelV4, mode: "native" | "text", prompt: string) {
  const trace = createTurnTrace({ turnId: "t1", model: "offline/scripted", toolMode: mode, protocol: "json", url: "http://127.0.0.1:1/v1/chat/completions" });
  const result = streamText({
    model: traced(model, trace, mode === "text"),
    tools,
    stopWhen: stepCountIs(4),
    prompt,
    telemetry: { integrations: [trace.telemetry] },
  });
  await result.consumeStream();
  return { trace, steps: trace.steps("m1") };
}

describe("turn trace", () => {
  it.each(["native", "text"] as const)("records each step of an offline %s turn with usage, TTFT and the call it proposed", async (mode) => {
    const { trace, steps } = await run(createOfflineModel(), mode, "please list files in lib");
    expect(steps.map((s) => s.stepNumber)).toEqual([0, 1]);
    const [first, second] = steps;
    expect(first?.finishReason).toBe("tool-calls");
    expect(second?.finishReason).toBe("stop");
    for (const step of steps) {
      expect(step.inputTokens).toBeGreaterThan(0);
      expect(step.outputTokens).toBeGreaterThan(0);
      expect(step.ttftMs).toBeGreaterThanOrEqual(0);
      expect(step.durationMs).toBeGreaterThanOrEqual(0);
      expect(step.retries).toBe(0);
      expect(step.messageId).toBe("m1");
    }
    expect(first?.toolCalls).toEqual([
      expect.objectContaining({ toolName: "list_files", proposedAt: expect.any(String), executionMs: expect.any(Number), outputBytes: 9 }),
    ]);
    expect(trace.summary()).toEqual(expect.objectContaining({ steps: 2, inputTokens: first!.inputTokens! + second!.inputTokens!, ttftMs: first?.ttftMs }));
    // The raw request is what the provider got: text mode describes the tools in the system text, native sends them as JSON Schema.
    if (mode === "text") {
      expect(first?.raw.request.tools).toBeUndefined();
      expect(first?.raw.request.system).toContain("list_files");
      const span = first!.raw.response.calls[0]!;
      expect(first?.raw.response.text.slice(span.start, span.end)).toMatch(/^<tool_call>.*list_files.*<\/tool_call>$/s);
    } else {
      expect(first?.raw.request.tools).toEqual([expect.objectContaining({ name: "list_files", inputSchema: expect.any(Object) })]);
      expect(first?.raw.response.toolInputs).toEqual([expect.objectContaining({ toolName: "list_files", deltas: [expect.stringContaining("lib")] })]);
    }
  });

  it("lists a malformed text-mode call as a near-miss with the parser's reason, located in the raw text", async () => {
    const reply = 'Let me look.\n<tool_call>{"name": "list_files", "arguments": {"path": "lib"</tool_call>\n';
    let calls = 0;
    const model = new MockLanguageModelV4({
      doStream: async () => {
        calls++;
        const text = calls === 1 ? reply : "Sorry.";
        return {
          stream: simulateReadableStream({
            chunks: [
              { type: "text-start", id: "t" },
              { type: "text-delta", id: "t", delta: text },
              { type: "text-end", id: "t" },
              {
                type: "finish",
                finishReason: { unified: "stop", raw: "stop" },
                usage: { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } },
              },
            ],
          }),
        };
      },
    });
    const { steps } = await run(model, "text", "list files");
    const miss = steps[0]?.raw.response.nearMisses[0];
    expect(miss?.error).toMatch(/cut off|JSON/);
    expect(steps[0]?.raw.response.text.slice(miss!.start, miss!.end)).toBe(miss?.raw);
    expect(steps[0]?.raw.response.calls).toEqual([]);
  });

  it("counts a provider attempt that failed and was retried", async () => {
    let attempts = 0;
    const model = new MockLanguageModelV4({
      doStream: async () => {
        if (++attempts === 1)
          throw new APICallError({ message: "overloaded", url: "http://127.0.0.1:1", requestBodyValues: {}, statusCode: 503, isRetryable: true });
        return {
          stream: simulateReadableStream({
            chunks: [
              { type: "text-start", id: "t" },
              { type: "text-delta", id: "t", delta: "hi" },
              { type: "text-end", id: "t" },
              {
                type: "finish",
                finishReason: { unified: "stop", raw: "stop" },
                usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } },
              },
            ],
          }),
        };
      },
    });
    const { steps } = await run(model, "native", "hello");
    expect(attempts).toBe(2);
    expect(steps[0]?.retries).toBe(1);
  });

  it("masks a provider error's key and URL credentials in the step it keeps, with no scrub given", async () => {
    const model = new MockLanguageModelV4({
      doStream: async () => {
        throw new APICallError({
          message: "Incorrect API key provided: sk-proj-abcdefghijklmnop1234 at http://bob:hunter22pass@host/v1?api-key=qqqqSECRET",
          url: "http://127.0.0.1:1",
          requestBodyValues: {},
          statusCode: 401,
          isRetryable: false,
        });
      },
    });
    const { steps } = await run(model, "native", "hello");
    const kept = JSON.stringify(steps);
    expect(steps[0]?.error).toMatch(/Incorrect API key provided: sk-proj-/);
    for (const secret of ["abcdefghijklmnop1234", "hunter22pass", "qqqqSECRET"]) expect(kept).not.toContain(secret);
  });
});

describe("turn trace saves", () => {
  type StepStart = Parameters<NonNullable<TurnTrace["telemetry"]["onStepStart"]>>[0];
  const startStep = (trace: TurnTrace, stepNumber: number) => trace.telemetry.onStepStart?.({ stepNumber } as StepStart);

  it("a periodic save writes only the step that changed, and masks and serialises its request once", async () => {
    // The recorder's own seam: every text it masks on the way to storage passes `scrub`.
    let scrubbed = 0;
    const trace = createTurnTrace({
      turnId: "t1",
      model: "m/x",
      toolMode: "native",
      scrub: (text) => {
        scrubbed += text.length;
        return text;
      },
    });
    const history = "x".repeat(200_000);
    const prompt = [{ role: "user" as const, content: [{ type: "text" as const, text: history }] }];
    startStep(trace, 0);
    const call = trace.tap({ prompt })!;
    call.part({ type: "text-delta", id: "t", delta: "first words" });

    const first = trace.changedSteps("m1");
    expect(first.map((s) => s.stepNumber)).toEqual([0]);
    expect(scrubbed).toBeGreaterThan(history.length);
    expect(JSON.parse(first[0]!.rawJson)).toEqual(trace.steps("m1")[0]!.raw);

    // Nothing new: nothing to write, nothing masked.
    scrubbed = 0;
    expect(trace.changedSteps("m1")).toEqual([]);
    expect(scrubbed).toBe(0);

    // More text: the step again, but its 200 KB request is not masked again.
    call.part({ type: "text-delta", id: "t", delta: " and more" });
    const again = trace.changedSteps("m1");
    expect(again.map((s) => s.stepNumber)).toEqual([0]);
    expect(scrubbed).toBeLessThan(1000);
    expect(JSON.parse(again[0]!.rawJson)).toEqual(trace.steps("m1")[0]!.raw);
    expect((JSON.parse(again[0]!.rawJson) as { response: { text: string } }).response.text).toBe("first words and more");

    // A second step streams: the first, unchanged, is not written again.
    startStep(trace, 1);
    trace.tap({ prompt })!.part({ type: "text-delta", id: "u", delta: "step two" });
    expect(trace.changedSteps("m1").map((s) => s.stepNumber)).toEqual([1]);
    // The turn's last save writes every step, so one whose periodic save failed is stored after all.
    expect(trace.changedSteps("m1", { all: true }).map((s) => s.stepNumber)).toEqual([0, 1]);
  });

  it("an ended step is written again with its outcome", () => {
    const trace = createTurnTrace({ turnId: "t1", model: "m/x", toolMode: "native" });
    startStep(trace, 0);
    trace.changedSteps("m1");
    trace.close({ kind: "stopped", text: "stopped by the person" });
    expect(trace.changedSteps("m1")).toEqual([expect.objectContaining({ stepNumber: 0, outcome: "stopped" })]);
  });
});
