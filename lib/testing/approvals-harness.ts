import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { LanguageModelV4, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { testEngine, throwawayPostgresDatabase } from "./test-database";
import { generateId, parseJsonEventStream, readUIMessageStream, uiMessageChunkSchema, type UIMessage, type UIMessageChunk } from "ai";

/**
 * API-level plumbing shared by the approval tests: a real SQLite file migrated the way `npm start`
 * does it, settings from the test's own environment, and the chat route's handler driven in-process.
 */

/**
 * Points the app at a fresh database; call it before anything imports lib/db (it reads the URL
 * once). A SQLite file in a new folder, or — in the storage suite's PostgreSQL run
 * (TOOLROOM_TEST_ENGINE=postgresql) — a database of its own on the real server, dropped after the file.
 */
export function useTempDatabase(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  process.env.DATABASE_URL = testEngine() === "postgresql" ? throwawayPostgresDatabase(prefix) : `file:${path.join(dir, "test.db")}`;
  process.env.XDG_STATE_HOME = path.join(dir, "state");
  return dir;
}

/** Migrates the database and loads settings from `env` alone (no toolroom.yaml from the checkout). */
export async function startServer(env: Record<string, string>): Promise<void> {
  execFileSync(process.execPath, ["scripts/migrate.mjs", "deploy"], { env: process.env, stdio: "pipe" });
  const { setLoadedSettings } = await import("@/lib/settings");
  const { loadSettings } = await import("@/lib/settings/load");
  // Sign-in is required on PostgreSQL; these tests drive services below the routes' guard, and
  // the storage suite runs them on both engines alike (lib/server/auth has its own tests).
  setLoadedSettings(loadSettings({ files: [], env: { TOOLROOM_AUTH__REQUIRED: "false", ...env } }));
}

/**
 * One POST /api/chat, read to the end; an HttpError comes back as the route's JSON answer. The
 * returned body is a fresh copy of what the browser would have received, so it can still be read.
 */
export async function post(body: Record<string, unknown>): Promise<Response> {
  const { chatRequestSchema } = await import("@/lib/server/chat/chat-request");
  const { HttpError } = await import("@/lib/server/http/http-error");
  const { handleChatRequest } = await import("@/lib/server/chat/chat-service");
  try {
    const response = await handleChatRequest(chatRequestSchema.parse(body), new AbortController().signal);
    // The turn is stored before the stream closes: the engine's onEnd runs in the stream's flush.
    const text = await response.text();
    return new Response(text, { status: response.status, headers: response.headers });
  } catch (error) {
    if (error instanceof HttpError) return error.toResponse();
    throw error;
  }
}

type Parsed = ReturnType<typeof parseJsonEventStream<UIMessageChunk>> extends ReadableStream<infer R> ? R : never;

/**
 * The assistant message as the browser's transport rebuilds it from the SSE body; `continuing` is
 * the message a continuation extends (it is updated in place, so pass a copy to keep the original).
 */
export async function readAssistantMessage(response: Response, continuing?: UIMessage): Promise<UIMessage> {
  if (!response.body) throw new Error("the response has no body");
  const chunks = parseJsonEventStream({ stream: response.body, schema: uiMessageChunkSchema }).pipeThrough(
    new TransformStream<Parsed, UIMessageChunk>({
      transform(result, controller) {
        if (!result.success) throw new Error(`the server sent a chunk the client cannot parse: ${result.error.message}`);
        controller.enqueue(result.value);
      },
    }),
  );
  let last: UIMessage | undefined;
  for await (const message of readUIMessageStream({ message: continuing, stream: chunks, terminateOnError: true })) last = message;
  if (!last) throw new Error("the stream carried no message");
  return last;
}

/** `tool {json}` pairs in a message: `tally {"id":"a"} mark {"id":"b"}` names two calls. */
const NAMED_CALL = /\b([a-z_]+) (\{[^{}]*\})/g;

/**
 * The offline model makes one call per message; several calls in one step (which approvals must
 * handle) need this wrapper: a message naming two or more calls gets them all as one step's tool
 * calls, and anything else goes to the wrapped model unchanged.
 */
export function withParallelCalls(model: LanguageModelV4): LanguageModelV4 {
  return {
    ...model,
    async doStream(options) {
      const last = options.prompt.at(-1);
      const text = last?.role === "user" ? last.content.map((part) => (part.type === "text" ? part.text : "")).join("\n") : "";
      const calls = [...text.matchAll(NAMED_CALL)];
      if (calls.length < 2) return model.doStream(options);
      const parts: LanguageModelV4StreamPart[] = [
        { type: "stream-start", warnings: [] },
        // Tool call ids are primary keys across chats, so they must be unique, not counters.
        ...calls.map(([, toolName = "", input = "{}"]): LanguageModelV4StreamPart => ({
          type: "tool-call",
          toolCallId: `parallel-${generateId()}`,
          toolName,
          input,
        })),
        {
          type: "finish",
          finishReason: { unified: "tool-calls", raw: "tool_calls" },
          usage: { inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 0, text: 0, reasoning: 0 } },
        },
      ];
      return {
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  };
}
