export type { PromptTool, TextProtocol } from "./types";
export { TEXT_PROTOCOLS } from "./types";
export { buildToolPrompt, signature } from "./prompt";
