import { toolFiles } from "@/lib/sandbox/tool-files";
import type { ToolContext } from "@/lib/tools/types";

/** A ToolContext for unit tests: no chat, no model, roots as given. */
export function testContext(overrides: Partial<ToolContext> = {}): ToolContext {
  return {
    chatId: null,
    modelId: null,
    isNewConversation: true,
    commandPolicies: [],
    settings: {},
    llm: () => {
      throw new Error("no model in this test context");
    },
    signal: new AbortController().signal,
    sourceRoot: process.cwd(),
    runsRoot: process.cwd(),
    files: toolFiles(overrides.sourceRoot ?? process.cwd()),
    ...overrides,
  };
}
