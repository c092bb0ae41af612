import type { UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { inlineTextAttachments } from "./attachments";

const user = (parts: UIMessage["parts"]): UIMessage => ({ id: "u1", role: "user", parts });

describe("attached resources", () => {
  it("turns a text resource into text the model reads, after the message's own text", () => {
    const url = `data:text/plain;base64,${Buffer.from("the notes\nline 2").toString("base64")}`;
    const [message] = inlineTextAttachments([
      user([
        { type: "text", text: "summarize" },
        { type: "file", mediaType: "text/plain", filename: "fixture://notes.txt", url },
      ]),
    ]);
    expect(message?.parts).toEqual([
      { type: "text", text: "summarize" },
      { type: "text", text: "Attached resource fixture://notes.txt (text/plain):\nthe notes\nline 2" },
    ]);
  });

  it("leaves images (content parts for models that take them), assistant messages and undecodable URLs alone", () => {
    const image = { type: "file" as const, mediaType: "image/png", filename: "pixel.png", url: "data:image/png;base64,iVBOR" };
    const odd = { type: "file" as const, mediaType: "application/json", url: "https://example.com/a.json" };
    const messages = [user([image, odd]), { id: "a1", role: "assistant" as const, parts: [{ type: "text" as const, text: "hi" }] }];
    const out = inlineTextAttachments(messages);
    expect(out[0]?.parts).toEqual([image, odd]);
    expect(out[1]).toBe(messages[1]);
  });
});
