// The baseline both eval benches compare against: one engine turn of the offline model, read to
// its end, with none of the eval runner around it.
import { generateId, type UIMessage } from "ai";
import { runChatTurn } from "@/lib/chat/engine";
import type { ModelResolver } from "@/lib/chat/models";
import { turnSetup } from "@/lib/server/chat/turn-setup";
import type { Settings } from "@/lib/settings/schema";
import type { Registry } from "@/lib/tools/registry-types";

export async function bareTurn(options: { settings: Settings; resolver: ModelResolver; registry: Registry; prompt: string }): Promise<void> {
  const { settings, resolver, registry, prompt } = options;
  const chatId = `bench-${generateId()}`;
  const { protocol: _p, ...turn } = turnSetup({
    settings,
    resolver,
    chatId,
    modelId: "offline/scripted",
    chatLlm: { type: "ref", ref: "offline" },
    isNewConversation: true,
  });
  const messages: UIMessage[] = [{ id: generateId(), role: "user", parts: [{ type: "text", text: prompt }] }];
  const stream = await runChatTurn({
    ...turn,
    chatId,
    messages,
    model: resolver.byName("offline"),
    toolMode: "native",
    protocol: "json",
    supervised: false,
    registry,
    grants: new Set(),
    signal: new AbortController().signal,
    generateMessageId: generateId,
  });
  const reader = stream.getReader();
  while (!(await reader.read()).done);
}

export async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}
