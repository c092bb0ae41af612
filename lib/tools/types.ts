// The tool contract's types live in the plugin kit, which plugins depend on: one definition for
// both sides (packages/toolroom-plugin-kit/index.d.ts).
export type {
  CommandPolicy,
  ElicitField,
  ElicitResult,
  ElicitSchema,
  EmbeddingsConfig,
  InputOf,
  InputSchema,
  JsonSchemaWrapper,
  JsonValue,
  NotAdmittedReason,
  NotAdmittedWhy,
  ToolConfirm,
  ToolContext,
  ToolDefinition,
  ToolExport,
  ToolFactory,
  ToolOutput,
  ToolResultObject,
  ZodLikeSchema,
} from "../../packages/toolroom-plugin-kit/index.js";
