-- What a tool asked the person while it ran (MCP elicitation, ctx.elicit) and how they answered: JSON list, NULL when nothing was asked.
-- AlterTable
ALTER TABLE "ToolCall" ADD COLUMN "elicitations" TEXT;
