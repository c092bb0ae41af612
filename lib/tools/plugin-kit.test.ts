import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool as kitDefineTool, jsonSchema as kitJsonSchema } from "toolroom-plugin-kit";
import { defineTool, jsonSchema } from "./define";
import type { ToolDefinition as KitToolDefinition } from "toolroom-plugin-kit";
import type { ToolDefinition } from "./types";

const SAMPLE = path.resolve(import.meta.dirname, "../../examples/plugins/toolroom-plugin-sample");

describe("the plugin kit", () => {
  it("is what the app uses: the same helpers and the same contract types", () => {
    expect(defineTool).toBe(kitDefineTool);
    expect(jsonSchema({ type: "object" })).toEqual(kitJsonSchema({ type: "object" }));
    // Type-level: the two names are one type (tsc --noEmit checks these assignments both ways).
    const a: ToolDefinition = {} as KitToolDefinition;
    const b: KitToolDefinition = a;
    expect(b).toBe(a);
  });

  it("types execute's and confirm's input from the zod schema, and why as data with a message", () => {
    const tool = defineTool({
      name: "typed",
      description: "Typed input.",
      input: z.object({ n: z.number(), label: z.string().optional() }),
      confirm: {
        evaluate: ({ n }) => n > 10,
        notAdmitted: ({ n }, why) => (why.kind === "denied" ? `not ${n}: ${why.reason ?? why.message}` : why.message),
      },
      execute: ({ n, label }) => {
        // @ts-expect-error n is a number, not a string: the editor knows the input's type
        const wrong: string = n;
        return `${label ?? "n"}=${n + 1}${wrong ? "" : ""}`;
      },
    });
    expect(tool.execute({ n: 1 }, {} as never)).toBe("n=2");
  });

  it("ships the sample plugin's dist/tools.js built from src/tools.ts (run npm run build in the sample after an edit)", () => {
    const config = ts.getParsedCommandLineOfConfigFile(path.join(SAMPLE, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
    const source = fs.readFileSync(path.join(SAMPLE, "src/tools.ts"), "utf8");
    // The package is "type": "module", so NodeNext emits ESM; transpileModule cannot see package.json and is told so.
    const built = ts.transpileModule(source, { compilerOptions: { ...config?.options, module: ts.ModuleKind.ESNext }, fileName: "tools.ts" }).outputText;
    expect(fs.readFileSync(path.join(SAMPLE, "dist/tools.js"), "utf8")).toBe(built);
  });
});
