import { describe, expect, it } from "vitest";
import { describeInputSchema } from "@/lib/tools/schema";
import type { RegisteredTool } from "@/lib/tools/registry-types";
import { mcpToolOf } from "./tool-listing";

const DRAFT_07 = "http://json-schema.org/draft-07/schema#";

function registered(inputSchema: Record<string, unknown>, schemaDialect?: string): RegisteredTool {
  return {
    name: "t",
    sourcePackage: "p",
    version: "1",
    origin: "plugin",
    packageDir: "/",
    entry: { file: "x.js", exportName: "t" },
    description: "T.",
    summary: "T.",
    readonly: true,
    requiresConfirmation: false,
    inputSchema,
    ...(schemaDialect ? { schemaDialect } : {}),
    enabled: true,
    resolve: () => {
      throw new Error("not called");
    },
  };
}

describe("MCP tools/list input schemas", () => {
  it("keeps the $schema a JSON Schema tool declared, while the registry's schema (sent to providers) has none", async () => {
    const described = await describeInputSchema({ jsonSchema: { $schema: DRAFT_07, type: "object", properties: { q: { type: "string" } } } });
    expect(described).toEqual({ inputSchema: { type: "object", properties: { q: { type: "string" } } }, dialect: DRAFT_07 });
    expect(mcpToolOf(registered(described.inputSchema, described.dialect)).inputSchema).toEqual({
      $schema: DRAFT_07,
      type: "object",
      properties: { q: { type: "string" } },
    });
  });

  it("adds no $schema to a schema that declared none", () => {
    expect(mcpToolOf(registered({ type: "object" })).inputSchema).not.toHaveProperty("$schema");
  });
});
