import type { ChatTurn } from "@/lib/chat/engine";
import type { ModelResolver } from "@/lib/chat/models";
import { turnErrorText } from "@/lib/chat/turn-errors";
import { scrubProviderError } from "@/lib/security/secrets";
import type { TextProtocol } from "@/lib/chat/text-protocol/types";
import type { LlmRef, Settings } from "@/lib/settings/schema";
import type { ToolContext } from "@/lib/tools/types";
import { createToolContext } from "@/lib/server/runtime/tool-context";

export interface TurnSetupOptions {
  settings: Settings;
  resolver: ModelResolver;
  chatId: string;
  /** `provider/model` of the model driving the chat, as tools and the guard file see it. */
  modelId: string;
  /** What a tool's `ctx.llm()` gets when neither the call nor the tool's settings name a model. */
  chatLlm: LlmRef;
  isNewConversation: boolean;
  /** How a tool's questions reach the person (`ctx.elicit`): the browser's dialog, the terminal; absent, nobody is asked. */
  elicitFor?: (toolName: string, signal: AbortSignal) => ToolContext["elicit"];
}

export type TurnSetup = Pick<
  ChatTurn,
  "protocol" | "maxSteps" | "approvalTimeoutSeconds" | "streamIdleTimeoutSeconds" | "stepTimeoutSeconds" | "guardFile" | "describeError" | "contextFor"
>;

/**
 * The part of a chat turn that comes from settings rather than from where the chat is kept, so
 * the web route and `toolroom ask` give tools the same context and show errors the same way.
 */
export function turnSetup(options: TurnSetupOptions): TurnSetup {
  const { settings, resolver, chatId, modelId, chatLlm, isNewConversation } = options;
  return {
    protocol: settings.chat.textProtocol,
    maxSteps: settings.chat.maxSteps,
    approvalTimeoutSeconds: settings.chat.approvalTimeoutSeconds,
    streamIdleTimeoutSeconds: settings.chat.streamIdleTimeoutSeconds,
    stepTimeoutSeconds: settings.chat.stepTimeoutSeconds,
    guardFile: settings.aiAssistedGuardFile,
    describeError: (error) => scrubProviderError(turnErrorText(error, modelId), settings),
    contextFor: (toolName, signal) => ({
      ...createToolContext({
        settings,
        toolName,
        chatId,
        modelId,
        isNewConversation,
        signal,
        llm: (forTool, name) => resolver.resolve(settings.tools[forTool]?.llm ?? (name ? { type: "ref", ref: name } : chatLlm)),
      }),
      ...(options.elicitFor ? { elicit: options.elicitFor(toolName, signal) } : {}),
    }),
  };
}

/**
 * How a turn takes tools, from the chat's choices and the model's settings entry: the protocol is
 * the chat's own, else the model's `textProtocol`, else `chat.textProtocol`; the model's
 * `toolMode` fixes the mode (`native`, `text`) or lets it switch (`auto`), else the chat's holds.
 */
export function toolModeFor(
  settings: Settings,
  llm: LlmRef,
  chat: { toolMode: "native" | "text"; textProtocol?: TextProtocol | null },
): Pick<ChatTurn, "toolMode" | "autoToolMode" | "protocol"> {
  const entry = llm.type === "ref" ? settings.llms[llm.ref] : undefined;
  const protocol = chat.textProtocol ?? entry?.textProtocol ?? settings.chat.textProtocol;
  const fixed = entry?.toolMode === "native" || entry?.toolMode === "text" ? entry.toolMode : undefined;
  return { toolMode: fixed ?? chat.toolMode, autoToolMode: entry?.toolMode === "auto", protocol };
}
