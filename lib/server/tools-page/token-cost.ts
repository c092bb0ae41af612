import { buildToolPrompt, signature, TEXT_PROTOCOLS, type PromptTool, type TextProtocol } from "@/lib/chat/text-protocol";
import { summaryLine } from "@/lib/tools/define";
import type { RegisteredTool, Registry } from "@/lib/tools/registry-types";

/** Named wherever a figure is shown: other models' tokenizers count differently, so it is an estimate. */
export const TOKENIZER = "o200k_base (GPT-4o, gpt-tokenizer)";

export interface ToolCost {
  /** The function definition as native tool calling sends it: name, full description, input schema. */
  native: number;
  /** The tool's line in a text-mode prompt (the same line in every protocol). */
  text: number;
}

export interface RegistryCost {
  tokenizer: string;
  perTool: Record<string, ToolCost>;
  /** For the enabled tools, as one chat offers them. */
  totals: { native: number; text: Record<TextProtocol, number> };
  /** Tools a model is offered (enabled ones). */
  offered: number;
}

function promptTool(tool: RegisteredTool): PromptTool {
  return {
    name: tool.name,
    description: tool.description,
    inputJsonSchema: tool.inputSchema,
    sourcePackage: tool.sourcePackage,
    builtin: tool.origin === "builtin",
  };
}

/** The JSON a provider receives for one function tool (OpenAI's shape; others are close). */
function nativeDefinition(tool: RegisteredTool): string {
  return JSON.stringify({ type: "function", function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } });
}

/** As buildToolPrompt writes it (the number is left out: it depends on the tool's place). */
function promptLine(tool: RegisteredTool): string {
  return `${signature(promptTool(tool))} - ${summaryLine(tool.description)}${tool.origin === "builtin" ? "" : ` [from ${tool.sourcePackage}]`}`;
}

// Building the tokenizer's tables is a fifth of a CLI start (0.17 cpu-s): loaded when first counted,
// so the commands and pages that show no figure never pay for it.
let counter: Promise<(text: string) => number> | undefined;
const tokenizer = () => (counter ??= import("gpt-tokenizer/encoding/o200k_base").then((m) => m.countTokens));

export async function toolCost(tool: RegisteredTool): Promise<ToolCost> {
  const countTokens = await tokenizer();
  return { native: countTokens(nativeDefinition(tool)), text: countTokens(promptLine(tool)) };
}

// A registry is immutable once built: its figures are counted once (a few ms for a hundred tools).
const cache = new WeakMap<Registry, RegistryCost>();

/** Token estimates of every tool and of what a chat is sent: native definitions, and each protocol's whole tool prompt. */
export async function registryCost(registry: Registry): Promise<RegistryCost> {
  const hit = cache.get(registry);
  if (hit) return hit;
  const countTokens = await tokenizer();
  const perTool: Record<string, ToolCost> = {};
  for (const tool of registry.tools) perTool[tool.name] = await toolCost(tool);
  const offered = registry.tools.filter((t) => t.enabled);
  const text = Object.fromEntries(TEXT_PROTOCOLS.map((p) => [p, countTokens(buildToolPrompt(p, offered.map(promptTool)))])) as Record<TextProtocol, number>;
  const cost: RegistryCost = {
    tokenizer: TOKENIZER,
    perTool,
    totals: { native: offered.reduce((sum, t) => sum + (perTool[t.name]?.native ?? 0), 0), text },
    offered: offered.length,
  };
  cache.set(registry, cost);
  return cost;
}
