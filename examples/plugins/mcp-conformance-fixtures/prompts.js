// @ts-check
// The prompts the conformance suite gets by name.
import { definePrompt, mediaContent } from "toolroom-plugin-kit";
import { RED_PIXEL_PNG } from "./media.js";

export const simplePrompt = definePrompt({
  name: "test_simple_prompt",
  description: "A prompt without arguments (conformance: prompts-get-simple).",
  get: () => [{ role: "user", content: { type: "text", text: "This is a simple prompt for testing." } }],
});

export const promptWithArguments = definePrompt({
  name: "test_prompt_with_arguments",
  description: "A prompt with two arguments; arg1 completes (conformance: prompts-get-with-args, completion-complete).",
  arguments: [
    { name: "arg1", description: "First test argument", required: true },
    { name: "arg2", description: "Second test argument", required: true },
  ],
  complete: { arg1: (value) => ["paris", "park", "party"].filter((v) => v.startsWith(value)) },
  get: ({ arg1, arg2 }) => [{ role: "user", content: { type: "text", text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` } }],
});

export const promptWithEmbeddedResource = definePrompt({
  name: "test_prompt_with_embedded_resource",
  description: "A prompt that embeds the resource it is given (conformance: prompts-get-embedded-resource).",
  arguments: [{ name: "resourceUri", description: "URI of the resource to embed", required: true }],
  get: ({ resourceUri }) => [
    { role: "user", content: { type: "resource", resource: { uri: resourceUri, mimeType: "text/plain", text: "Embedded resource content for testing." } } },
    { role: "user", content: { type: "text", text: "Please process the embedded resource above." } },
  ],
});

export const promptWithImage = definePrompt({
  name: "test_prompt_with_image",
  description: "A prompt with an image (conformance: prompts-get-with-image).",
  get: () => [
    { role: "user", content: mediaContent("image", RED_PIXEL_PNG, "image/png") },
    { role: "user", content: { type: "text", text: "Please analyze the image above." } },
  ],
});
