import { ErrorCode, type GetPromptResult, type ListPromptsResult } from "@modelcontextprotocol/sdk/types.js";
import type { Registry } from "@/lib/tools/registry-types";
import type { ContributionContext } from "@/lib/tools/types";
import { ProtocolError } from "./call";

export function listPrompts(registry: Registry): ListPromptsResult {
  return {
    prompts: (registry.prompts ?? []).map(({ definition, sourcePackage, version }) => ({
      name: definition.name,
      title: definition.title,
      description: definition.description,
      arguments: definition.arguments,
      _meta: { "toolroom/source": sourcePackage, "toolroom/version": version },
    })),
  };
}

/** prompts/get: required arguments are checked here, so a plugin's `get` sees them all. */
export async function getPrompt(registry: Registry, name: string, args: Record<string, string>, ctx: ContributionContext): Promise<GetPromptResult> {
  const prompt = findPrompt(registry, name);
  const missing = (prompt.definition.arguments ?? []).filter((a) => a.required && !(a.name in args)).map((a) => a.name);
  if (missing.length) throw new ProtocolError(ErrorCode.InvalidParams, `Prompt ${name} needs ${missing.join(", ")}`);
  let got: Awaited<ReturnType<typeof prompt.definition.get>>;
  try {
    got = await prompt.definition.get(args, ctx);
  } catch (error) {
    throw new ProtocolError(ErrorCode.InternalError, `${prompt.sourcePackage}: prompt ${name} failed: ${(error as Error).message}`);
  }
  return Array.isArray(got)
    ? { description: prompt.definition.description, messages: got }
    : { description: got.description ?? prompt.definition.description, messages: got.messages };
}

/** completion/complete for a `ref/prompt`: the prompt's completer for that argument, else nothing. */
export async function completePromptArgument(
  registry: Registry,
  name: string,
  argument: string,
  value: string,
  context: Record<string, string>,
): Promise<string[]> {
  const complete = findPrompt(registry, name).definition.complete?.[argument];
  return complete ? await complete(value, { arguments: context }) : [];
}

function findPrompt(registry: Registry, name: string) {
  const prompt = (registry.prompts ?? []).find((p) => p.definition.name === name);
  if (!prompt) throw new ProtocolError(ErrorCode.InvalidParams, `Unknown prompt: ${name}`);
  return prompt;
}
