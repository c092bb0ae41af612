import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { testContext } from "@/lib/testing/context";
import { defineTool, jsonSchema } from "./define";
import { invoke } from "./invoke";

const add = defineTool({
  name: "add",
  description: "Add two numbers.",
  input: z.object({ a: z.number(), b: z.number().default(1) }),
  execute: ({ a, b }) => ({ sum: a + b }),
});

describe("invoke", () => {
  it("validates input, applies defaults and pretty-prints JSON output", async () => {
    const result = await invoke(add, { a: 2 }, testContext());
    expect(result).toMatchObject({ text: '{\n  "sum": 3\n}', isError: false, madeChanges: false });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("turns invalid input into an Error: result naming the field", async () => {
    const result = await invoke(add, { a: "two" }, testContext());
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^Error: invalid input for add: a: /);
  });

  it("validates JSON Schema inputs too", async () => {
    const tool = defineTool({
      name: "j",
      description: "j",
      input: jsonSchema({ type: "object", properties: { n: { type: "integer", minimum: 1 } }, required: ["n"] }),
      execute: ({ n }: { n: number }) => `n=${n}`,
    });
    expect((await invoke(tool, { n: 0 }, testContext())).text).toMatch(/^Error: invalid input for j: n:/);
    expect((await invoke(tool, {}, testContext())).isError).toBe(true);
    expect((await invoke(tool, { n: 2 }, testContext())).text).toBe("n=2");
  });

  it("turns a throw into an Error: result", async () => {
    const tool = defineTool({
      name: "boom",
      description: "b",
      input: z.object({}),
      execute: () => {
        throw new Error("kaboom");
      },
    });
    expect((await invoke(tool, {}, testContext())).text).toBe("Error: boom failed: kaboom");
  });

  it("times out, aborts the tool's signal and says so", async () => {
    let aborted = false;
    const tool = defineTool({
      name: "slow",
      description: "s",
      input: z.object({}),
      execute: (_input, ctx) =>
        new Promise<string>(() =>
          ctx.signal.addEventListener("abort", () => {
            aborted = true;
          }),
        ),
    });
    const result = await invoke(tool, {}, testContext({ settings: { timeoutSeconds: 0.05 } }));
    expect(result).toMatchObject({ text: "Error: slow timed out after 0.05 s", timedOut: true, isError: true });
    expect(aborted).toBe(true);
  });

  it("uses the tool's format for what the model sees", async () => {
    const tool = defineTool({ name: "f", description: "f", input: z.object({}), execute: () => ({ n: 1 }), format: (o) => `n is ${(o as { n: number }).n}` });
    expect((await invoke(tool, {}, testContext())).text).toBe("n is 1");
  });

  it("appends the driving model to the guard file when a result made changes", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-guard-"));
    const tool = defineTool({ name: "w", description: "w", readonly: false, input: z.object({}), execute: () => ({ output: "wrote", madeChanges: true }) });
    const ctx = testContext({ sourceRoot: root, modelId: "openai/gpt-4o" });
    const result = await invoke(tool, {}, ctx);
    expect(result).toMatchObject({ text: "wrote", madeChanges: true });
    await invoke(tool, {}, testContext({ sourceRoot: root, modelId: "offline/scripted" }));
    expect(fs.readFileSync(path.join(root, ".toolroom", "ai-assisted"), "utf8")).toBe("openai/gpt-4o\noffline/scripted\n");

    fs.mkdirSync(path.join(root, ".git"));
    await invoke(tool, {}, ctx);
    expect(fs.readFileSync(path.join(root, ".git", "commit-temp", "ai-assisted"), "utf8")).toBe("openai/gpt-4o\n");

    await invoke(tool, {}, ctx, { guardFile: "custom/guard.txt" });
    expect(fs.readFileSync(path.join(root, "custom", "guard.txt"), "utf8")).toBe("openai/gpt-4o\n");
    fs.rmSync(root, { recursive: true, force: true });
  });

  it("leaves the guard file alone when nothing changed", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-guard-"));
    await invoke(add, { a: 1 }, testContext({ sourceRoot: root, modelId: "openai/gpt-4o" }));
    expect(fs.existsSync(path.join(root, ".toolroom", "ai-assisted"))).toBe(false);
    fs.rmSync(root, { recursive: true, force: true });
  });
});
