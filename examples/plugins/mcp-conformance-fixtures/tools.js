// @ts-check
// The conformance suite's server scenarios call these tools by name; each does what its scenario
// asks, through the public plugin contract (toolroom-plugin-kit) and nothing else.
import { defineTool, jsonSchema, mediaContent } from "toolroom-plugin-kit";
import { pause, RED_PIXEL_PNG, silenceWav } from "./media.js";

const noInput = jsonSchema({ type: "object", properties: {} });

export const simpleText = defineTool({
  name: "test_simple_text",
  description: "Returns a fixed sentence (conformance: tools-call-simple-text).",
  input: noInput,
  execute: () => "This is a simple text response for testing.",
});

export const imageContent = defineTool({
  name: "test_image_content",
  description: "Returns a 1×1 red PNG as image content (conformance: tools-call-image).",
  input: noInput,
  execute: () => ({ output: "A 1×1 red PNG.", content: [mediaContent("image", RED_PIXEL_PNG, "image/png")] }),
});

export const audioContent = defineTool({
  name: "test_audio_content",
  description: "Returns a short silent WAV as audio content (conformance: tools-call-audio).",
  input: noInput,
  execute: () => ({ output: "A tenth of a second of silence (WAV).", content: [mediaContent("audio", silenceWav(), "audio/wav")] }),
});

const embedded = { uri: "test://embedded-resource", mimeType: "text/plain", text: "This is an embedded resource content." };

export const embeddedResource = defineTool({
  name: "test_embedded_resource",
  description: "Returns an embedded text resource (conformance: tools-call-embedded-resource).",
  input: noInput,
  execute: () => ({ output: embedded.text, content: [{ type: "resource", resource: embedded }] }),
});

export const multipleContentTypes = defineTool({
  name: "test_multiple_content_types",
  description: "Returns text, an image and an embedded resource (conformance: tools-call-mixed-content).",
  input: noInput,
  execute: () => ({
    output: "Multiple content types test:",
    content: [
      { type: "text", text: "Multiple content types test:" },
      mediaContent("image", RED_PIXEL_PNG, "image/png"),
      {
        type: "resource",
        resource: { uri: "test://mixed-content-resource", mimeType: "application/json", text: JSON.stringify({ test: "data", value: 123 }) },
      },
    ],
  }),
});

export const withLogging = defineTool({
  name: "test_tool_with_logging",
  description: "Sends three info log messages while it runs (conformance: tools-call-with-logging).",
  input: noInput,
  execute: async (_input, ctx) => {
    ctx.log?.("info", "Tool execution started");
    await pause(50, ctx.signal);
    ctx.log?.("info", "Tool processing data");
    await pause(50, ctx.signal);
    ctx.log?.("info", "Tool execution completed");
    return "Tool with logging executed successfully";
  },
});

export const withProgress = defineTool({
  name: "test_tool_with_progress",
  description: "Reports progress 0, 50 and 100 of 100 (conformance: tools-call-with-progress).",
  input: noInput,
  execute: async (_input, ctx) => {
    ctx.progress?.(0, 100);
    await pause(50, ctx.signal);
    ctx.progress?.(50, 100);
    await pause(50, ctx.signal);
    ctx.progress?.(100, 100);
    return "Tool with progress executed successfully";
  },
});

export const errorHandling = defineTool({
  name: "test_error_handling",
  description: "Always fails (conformance: tools-call-error).",
  input: noInput,
  execute: () => {
    throw new Error("This tool intentionally returns an error for testing");
  },
});

/** Asks, and reports the answer the way the suite's scenarios expect to read it. */
async function ask(ctx, message, schema) {
  if (!ctx.elicit) return "Error: this caller cannot ask a person";
  const answer = await ctx.elicit(message, schema);
  return `Elicitation completed: action=${answer.action}, content=${JSON.stringify("content" in answer ? answer.content : {})}`;
}

export const elicitation = defineTool({
  name: "test_elicitation",
  description: "Asks the person for a username and an email (conformance: tools-call-elicitation).",
  input: jsonSchema({ type: "object", properties: { message: { type: "string", description: "The message to show the user" } }, required: ["message"] }),
  execute: async ({ message }, ctx) =>
    `User response: ${await ask(ctx, message, {
      type: "object",
      properties: { username: { type: "string", description: "User's response" }, email: { type: "string", description: "User's email address" } },
      required: ["username", "email"],
    })}`,
});

export const elicitationDefaults = defineTool({
  name: "test_elicitation_sep1034_defaults",
  description: "Asks with a default for every primitive type (conformance: elicitation-sep1034-defaults).",
  input: noInput,
  execute: (_input, ctx) =>
    ask(ctx, "Please review your information", {
      type: "object",
      properties: {
        name: { type: "string", description: "User name", default: "John Doe" },
        age: { type: "integer", description: "User age", default: 30 },
        score: { type: "number", description: "User score", default: 95.5 },
        status: { type: "string", description: "User status", enum: ["active", "inactive", "pending"], default: "active" },
        verified: { type: "boolean", description: "Verification status", default: true },
      },
    }),
});

export const elicitationEnums = defineTool({
  name: "test_elicitation_sep1330_enums",
  description: "Asks with each of the five enum shapes (conformance: elicitation-sep1330-enums).",
  input: noInput,
  execute: (_input, ctx) =>
    ask(ctx, "Please choose", {
      type: "object",
      properties: {
        untitledSingle: { type: "string", enum: ["option1", "option2", "option3"] },
        titledSingle: {
          type: "string",
          oneOf: [
            { const: "value1", title: "First Option" },
            { const: "value2", title: "Second Option" },
            { const: "value3", title: "Third Option" },
          ],
        },
        legacyEnum: { type: "string", enum: ["opt1", "opt2", "opt3"], enumNames: ["Option One", "Option Two", "Option Three"] },
        untitledMulti: { type: "array", items: { type: "string", enum: ["option1", "option2", "option3"] } },
        titledMulti: {
          type: "array",
          items: {
            anyOf: [
              { const: "value1", title: "First Choice" },
              { const: "value2", title: "Second Choice" },
              { const: "value3", title: "Third Choice" },
            ],
          },
        },
      },
    }),
});

export const jsonSchema202012 = defineTool({
  name: "json_schema_2020_12_tool",
  description: "Tool with JSON Schema 2020-12 features (conformance: json-schema-2020-12).",
  input: jsonSchema({
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    $defs: { address: { type: "object", properties: { street: { type: "string" }, city: { type: "string" } } } },
    properties: { name: { type: "string" }, address: { $ref: "#/$defs/address" } },
    additionalProperties: false,
  }),
  execute: (input) => input,
});

export const reconnection = defineTool({
  name: "test_reconnection",
  description: "Answers after a short wait (conformance: server-sse-polling; the stream is the server's to close, not a plugin's).",
  input: noInput,
  execute: async (_input, ctx) => {
    await pause(100, ctx.signal);
    return "Reconnection test completed successfully";
  },
});
