import { describe, expect, it } from "vitest";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { buildToolPrompt } from "@/lib/chat/text-protocol";
import type { RegisteredTool, Registry } from "@/lib/tools/registry-types";
import { registryCost, toolCost } from "./token-cost";

function tool(overrides: Partial<RegisteredTool> = {}): RegisteredTool {
  return {
    name: "echo",
    sourcePackage: "toolroom",
    version: "0.1.0",
    origin: "builtin",
    packageDir: "/repo",
    entry: { file: "echo.ts", exportName: "echo" },
    description: "Echo the text back.",
    summary: "Echo the text back.",
    readonly: true,
    requiresConfirmation: false,
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    enabled: true,
    resolve: () => {
      throw new Error("not called");
    },
    ...overrides,
  };
}

function registry(tools: RegisteredTool[]): Registry {
  return { tools, diagnostics: [], disabledPackages: [], get: (name) => tools.find((t) => t.name === name) };
}

describe("token estimates", () => {
  it("counts with o200k_base: the fixed encoding of a known sentence", () => {
    // The tokenizer's own output for this sentence; a different tokenizer or version changes it.
    expect(encode("Echo the text back.")).toEqual([107130, 290, 2201, 1602, 13]);
  });

  it("a tool costs its native function definition and its text-mode prompt line", async () => {
    // {"type":"function","function":{"name":"echo","description":…,"parameters":{…}}} is 39 tokens;
    // `echo(text="…") - Echo the text back.` is 11, and 16 with a plugin's " [from my-plugin]".
    expect(await toolCost(tool())).toEqual({ native: 39, text: 11 });
    expect((await toolCost(tool({ origin: "plugin", sourcePackage: "my-plugin" }))).text).toBe(16);
    // A longer description costs more natively, but only its first line reaches a text-mode prompt.
    const long = await toolCost(tool({ description: "Echo the text back.\n\nArgs: text — anything at all, as long as you like." }));
    expect(long.native).toBeGreaterThan(39);
    expect(long.text).toBe(11);
  });

  it("totals count the enabled tools only, per protocol the whole prompt", async () => {
    const off = tool({ name: "other", enabled: false });
    const cost = await registryCost(registry([tool(), off]));
    expect(cost.offered).toBe(1);
    expect(cost.totals.native).toBe(39);
    expect(cost.perTool.other).toBeDefined();
    expect(cost.totals.text.json).toBe(
      encode(
        buildToolPrompt("json", [
          { name: "echo", description: "Echo the text back.", inputJsonSchema: tool().inputSchema, sourcePackage: "toolroom", builtin: true },
        ]),
      ).length,
    );
    // Each protocol's rules differ, so their totals do.
    expect(new Set(Object.values(cost.totals.text)).size).toBeGreaterThan(1);
    expect(cost.tokenizer).toMatch(/estimate|o200k/);
  });
});
