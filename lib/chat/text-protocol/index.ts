export type { ParseEvent, PromptTool, TextProtocol, ToolInput } from "./types";
export { TEXT_PROTOCOLS } from "./types";
export { createTextCallParser, type TextCallParser } from "./parser";
export { parseActionArgs } from "./action-args";
export { CALL_FORMAT, formatCall, formatToolResultMessage, parseToolResultMessage } from "./format";
export { buildToolPrompt, readToolPrompt, signature, PLUGIN_HEADING, type PromptedTool } from "./prompt";
