import type { UIMessage } from "ai";

const TEXTUAL = /^(text\/|application\/(json|xml|yaml|x-yaml|javascript|toml)\b|[^;]*\+(json|xml)\b)/;

function decodeDataUrl(url: string): string | null {
  const match = /^data:[^,]*?(;base64)?,(.*)$/s.exec(url);
  if (!match) return null;
  try {
    return match[1] ? Buffer.from(match[2] ?? "", "base64").toString("utf8") : decodeURIComponent(match[2] ?? "");
  } catch {
    return null;
  }
}

/**
 * A text resource attached to a message (a file part from the Sources view) goes to the model as
 * text: few providers take text/* files, and every model reads text. Images, audio and other files
 * stay file parts, which the SDK sends as content parts to the models that accept them.
 */
export function inlineTextAttachments(messages: UIMessage[]): UIMessage[] {
  return messages.map((message) => {
    if (message.role !== "user" || !message.parts.some((p) => p.type === "file" && TEXTUAL.test(p.mediaType))) return message;
    return {
      ...message,
      parts: message.parts.map((part) => {
        if (part.type !== "file" || !TEXTUAL.test(part.mediaType)) return part;
        const text = decodeDataUrl(part.url);
        if (text === null) return part;
        return { type: "text" as const, text: `Attached resource ${part.filename ?? ""} (${part.mediaType}):\n${text}` };
      }),
    };
  });
}
