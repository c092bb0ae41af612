import { describe, expect, it } from "vitest";
import { acceptsMediaResults, mediaToolOutput } from "./media-output";

describe("media in tool results", () => {
  it("goes to the providers whose tool results hold content parts, not to chat-completions APIs", () => {
    expect(acceptsMediaResults("anthropic.messages")).toBe(true);
    expect(acceptsMediaResults("openai.responses")).toBe(true);
    expect(acceptsMediaResults("openai.chat")).toBe(false);
    expect(acceptsMediaResults("local.chat")).toBe(false);
  });

  it("is the text followed by one file part per image; audio stays in the text only; without images, the text alone", () => {
    expect(mediaToolOutput("a pixel [image: image/png, 68 B]", [{ type: "image", data: "iVBOR", mimeType: "image/png" }])).toEqual({
      type: "content",
      value: [
        { type: "text", text: "a pixel [image: image/png, 68 B]" },
        { type: "file", mediaType: "image/png", data: { type: "data", data: "iVBOR" } },
      ],
    });
    expect(mediaToolOutput("plain", undefined)).toEqual({ type: "text", value: "plain" });
    expect(mediaToolOutput("[audio: audio/wav, 4 B]", [{ type: "audio", data: "UklGRg==", mimeType: "audio/wav" }])).toEqual({
      type: "text",
      value: "[audio: audio/wav, 4 B]",
    });
  });
});
