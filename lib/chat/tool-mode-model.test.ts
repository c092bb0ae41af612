import { APICallError } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { isToolsRejection } from "./tool-mode-model";

const apiError = (statusCode: number, message: string, responseBody?: string) =>
  new APICallError({ message, url: "http://127.0.0.1/v1/chat/completions", requestBodyValues: {}, statusCode, responseBody, isRetryable: false });

describe("isToolsRejection", () => {
  it.each([
    [400, "registry.ollama.ai/library/gemma:2b does not support tools"],
    [400, '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set'],
    [404, "Bad Request", '{"error": "This model does not support function calling"}'],
    [422, "tools is not supported for this model"],
  ])("HTTP %i %s → refused tools", (status, message, body?: string) => {
    expect(isToolsRejection(apiError(status, message, body))).toBe(true);
  });

  it.each([
    [400, "context length exceeded"],
    [500, "model does not support tools"],
    [401, "invalid api key for tools endpoint"],
  ])("HTTP %i %s → another error", (status, message) => {
    expect(isToolsRejection(apiError(status, message))).toBe(false);
  });

  it("is never a plain error", () => {
    expect(isToolsRejection(new Error("does not support tools"))).toBe(false);
  });
});
