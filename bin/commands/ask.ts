import type { LanguageModelV4 } from "@ai-sdk/provider";
import { generateId } from "ai";
import { Option, type Command } from "commander";
import { loadRegistry } from "@/lib/server/runtime/registry";
import { toolModeFor, turnSetup } from "@/lib/server/chat/turn-setup";
import { TEXT_PROTOCOLS, type TextProtocol } from "@/lib/chat/text-protocol/types";
import { createModelResolver, ModelConfigError, type ModelResolver } from "@/lib/chat/models";
import type { LlmRef, Settings } from "@/lib/settings/schema";
import { describeNotAdmitted } from "@/lib/tools/confirm";
import { settingsRuleDecider } from "@/lib/server/approvals/settings-rules";
import { terminalElicit } from "./elicit-prompt";
import { CliExit, cliSettings } from "../context";
import { streamPrinter } from "./ask-print";
import { promptApproval } from "./ask-prompt";
import { askTurn } from "./ask-turn";
import { commandStdout, out } from "../stdout";

/** What a shell reports for a run stopped with Ctrl-C (128 + SIGINT). */
export const EXIT_INTERRUPTED = 130;
/** The provider refused to answer (a content filter, a refusal): not a success, and not a crash. */
export const EXIT_REFUSED = 4;

interface AskOptions {
  mode?: "native" | "text";
  protocol?: TextProtocol;
  model?: string;
  json?: boolean;
}

export function registerAsk(program: Command): void {
  program
    .command("ask <message>")
    .description("one chat turn through the same engine as the web chat; streams the answer and each tool call")
    .addOption(new Option("--mode <mode>", "tool mode (default: settings chat.toolMode)").choices(["native", "text"]))
    .addOption(new Option("--protocol <protocol>", "text-mode protocol (default: settings chat.textProtocol)").choices(TEXT_PROTOCOLS))
    .option("--model <ref>", "a model from settings llms (default: settings chat.llm)")
    .option("--json", "print only the final UI messages, as JSON, on stdout")
    .action(async (message: string, options: AskOptions) => {
      if (!message.trim()) throw new CliExit(2, "toolroom: the message is empty.");
      const { settings } = cliSettings(program.opts<{ config?: string }>().config);
      const chatLlm: LlmRef = options.model ? { type: "ref", ref: options.model } : settings.chat.llm;
      const { resolver, model } = resolveModel(settings, chatLlm);
      const registry = await loadRegistry({ settings, log: () => {} });

      const controller = new AbortController();
      const interrupt = () => controller.abort();
      // Once: a second Ctrl-C gets Node's default and ends the process outright.
      process.once("SIGINT", interrupt);
      const printer = options.json ? undefined : streamPrinter(commandStdout(), process.stderr);
      const chatId = `ask-${generateId()}`;
      const setup = turnSetup({
        settings,
        resolver,
        chatId,
        modelId: `${model.provider}/${model.modelId}`,
        chatLlm,
        isNewConversation: true,
        elicitFor: (toolName) => terminalElicit({ toolName, yes: false }),
      });

      const outcome = await askTurn({
        turn: {
          ...setup,
          chatId,
          model,
          ...toolModeFor(settings, chatLlm, { toolMode: options.mode ?? settings.chat.toolMode, textProtocol: options.protocol }),
          // Without a terminal nobody can answer y/N, so calls that need a person are not admitted.
          supervised: settings.chat.supervised && process.stdin.isTTY === true,
          registry,
          grants: new Set(),
          rules: settingsRuleDecider(settings),
          signal: controller.signal,
          generateMessageId: generateId,
        },
        messages: [{ id: generateId(), role: "user", parts: [{ type: "text", text: message }] }],
        onChunk: (chunk) => printer?.chunk(chunk),
        decide: async (call) => {
          const decision = await promptApproval(call, { timeoutSeconds: setup.approvalTimeoutSeconds, signal: controller.signal, onInterrupt: interrupt });
          if (decision.decision !== "approved")
            printer?.declined(call.toolCallId, describeNotAdmitted({ kind: decision.decision === "timed-out" ? "timed-out" : "denied" }));
          return decision;
        },
      }).finally(async () => {
        process.off("SIGINT", interrupt);
        // MCP server processes (settings mcpServers) are stopped before the command returns.
        await registry.close?.();
      });

      printer?.end();
      if (options.json) out(`${JSON.stringify(outcome.messages, null, 2)}\n`);
      if (outcome.aborted) throw new CliExit(EXIT_INTERRUPTED, "toolroom: stopped.");
      if (outcome.error !== undefined) throw new CliExit(1, `toolroom: ${outcome.error}`);
      if (outcome.refused !== undefined) throw new CliExit(EXIT_REFUSED, `toolroom: ${outcome.refused}`);
    });
}

/** A model the settings cannot give is a usage error (exit 2), named with the refs that exist. */
function resolveModel(settings: Settings, ref: LlmRef): { resolver: ModelResolver; model: LanguageModelV4 } {
  try {
    const resolver = createModelResolver(settings);
    return { resolver, model: resolver.resolve(ref) };
  } catch (error) {
    if (error instanceof ModelConfigError) throw new CliExit(2, `toolroom: ${error.message}`);
    throw error;
  }
}
