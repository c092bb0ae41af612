import "server-only";
import type { GetPromptResult, ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import type { Registry } from "@/lib/tools/registry-types";
import { sessionFor, sourceHttpError } from "./sources-view";

/** Text shown of one resource part; the rest is cut (the page is not an editor). */
const TEXT_LIMIT = 256 * 1024;
/** Binary parts above this are described, not sent to the browser. */
const BLOB_LIMIT = 8 * 1024 * 1024;

/** One part of a read resource as the browser gets it. */
export type ResourcePart =
  | { uri: string; mimeType?: string; kind: "text"; text: string; truncated: boolean; length: number }
  | { uri: string; mimeType?: string; kind: "image" | "audio" | "binary"; bytes: number; data?: string };

function bytesOf(base64: string): number {
  return Math.floor((base64.replace(/=+$/, "").length * 3) / 4);
}

function kindOf(mimeType: string | undefined): "image" | "audio" | "binary" {
  if (mimeType?.startsWith("image/")) return "image";
  if (mimeType?.startsWith("audio/")) return "audio";
  return "binary";
}

function part(content: ReadResourceResult["contents"][number]): ResourcePart {
  const base = { uri: content.uri, ...(content.mimeType ? { mimeType: content.mimeType } : {}) };
  if ("text" in content && typeof content.text === "string") {
    const truncated = content.text.length > TEXT_LIMIT;
    return { ...base, kind: "text", text: truncated ? content.text.slice(0, TEXT_LIMIT) : content.text, truncated, length: content.text.length };
  }
  const blob = "blob" in content && typeof content.blob === "string" ? content.blob : "";
  const bytes = bytesOf(blob);
  return { ...base, kind: kindOf(content.mimeType), bytes, ...(bytes <= BLOB_LIMIT ? { data: blob } : {}) };
}

async function bounded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw sourceHttpError(error);
  }
}

export async function readResource(registry: Registry, server: string, uri: string): Promise<{ parts: ResourcePart[] }> {
  const session = sessionFor(registry, server);
  const result = await bounded(() => session.readResource(uri));
  return { parts: result.contents.map(part) };
}

export async function setSubscription(registry: Registry, server: string, uri: string, subscribed: boolean): Promise<void> {
  const session = sessionFor(registry, server);
  await bounded(() => (subscribed ? session.subscribe(uri) : session.unsubscribe(uri)));
}

/**
 * A prompt's messages as the text that goes into the composer: each message's text, embedded
 * resources' text, and a note for what a composer cannot hold (images, audio).
 */
export function promptText(result: GetPromptResult): string {
  const many = new Set(result.messages.map((m) => m.role)).size > 1;
  return result.messages
    .map((message) => {
      const c = message.content;
      const body =
        c.type === "text"
          ? c.text
          : c.type === "resource"
            ? "text" in c.resource
              ? String(c.resource.text)
              : `[resource ${c.resource.uri}]`
            : c.type === "resource_link"
              ? `[resource link: ${c.uri}]`
              : `[${c.type}: ${"mimeType" in c ? c.mimeType : ""}]`;
      return many ? `${message.role}: ${body}` : body;
    })
    .join("\n\n");
}

export async function getPrompt(
  registry: Registry,
  server: string,
  name: string,
  args: Record<string, string>,
): Promise<{ text: string; description?: string }> {
  const session = sessionFor(registry, server);
  const result = await bounded(() => session.getPrompt(name, args));
  return { text: promptText(result), ...(result.description ? { description: result.description } : {}) };
}

export type CompletionRef = { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string };

/** Values the server suggests for one argument; none when it offers no completion. */
export async function complete(
  registry: Registry,
  server: string,
  ref: CompletionRef,
  argument: { name: string; value: string },
  context: Record<string, string>,
): Promise<{ values: string[] }> {
  const session = sessionFor(registry, server);
  if (!session.capabilities()?.completions) return { values: [] };
  const values = await bounded(() => session.complete({ ref, argument, ...(Object.keys(context).length ? { context: { arguments: context } } : {}) }));
  return { values: values.slice(0, 100) };
}
