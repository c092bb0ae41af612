import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import type { ElicitSchema } from "@/lib/tools/types";
import { terminalElicit } from "./elicit-prompt";

const SCHEMA: ElicitSchema = {
  type: "object",
  properties: {
    name: { type: "string", title: "Name", default: "Margherita" },
    size: {
      type: "string",
      oneOf: [
        { const: "s", title: "Small" },
        { const: "l", title: "Large" },
      ],
    },
    count: { type: "integer", minimum: 1 },
  },
  required: ["size"],
};

function terminal(lines: string[]) {
  const input = Object.assign(new PassThrough(), { isTTY: true });
  const output = new PassThrough();
  let shown = "";
  output.on("data", (chunk: Buffer) => (shown += chunk.toString()));
  input.end(lines.map((l) => `${l}\n`).join(""));
  return { input, output, shown: () => shown };
}

describe("toolroom call answers a tool's form on the terminal", () => {
  it("asks field by field, keeps defaults on Enter, re-asks a bad value, and sends on yes", async () => {
    const t = terminal(["", "2", "0", "3", "y"]);
    const answer = await terminalElicit({ toolName: "order_pizza", yes: false, input: t.input, output: t.output })("Which pizza?", SCHEMA);
    expect(answer).toEqual({ action: "accept", content: { name: "Margherita", size: "l", count: 3 } });
    expect(t.shown()).toContain("The tool asks: Which pizza?");
    expect(t.shown()).toContain("Name [Margherita]: ");
    expect(t.shown()).toContain("  2. Large (l)");
    expect(t.shown()).toContain("must be at least 1");
  });

  it("declines or cancels as the person says, and cancels when the input ends", async () => {
    const declined = terminal(["", "1", "", "n"]);
    expect(await terminalElicit({ toolName: "order_pizza", yes: false, input: declined.input, output: declined.output })("q", SCHEMA)).toEqual({
      action: "decline",
    });
    const cancelled = terminal(["", "1", "", "c"]);
    expect(await terminalElicit({ toolName: "order_pizza", yes: false, input: cancelled.input, output: cancelled.output })("q", SCHEMA)).toEqual({
      action: "cancel",
    });
    const ended = terminal([""]);
    expect(await terminalElicit({ toolName: "order_pizza", yes: false, input: ended.input, output: ended.output })("q", SCHEMA)).toEqual({ action: "cancel" });
  });

  it("--yes accepts the defaults, or declines when a required field has none; no terminal is not admitted", async () => {
    const t = terminal([]);
    expect(await terminalElicit({ toolName: "order_pizza", yes: true, input: t.input, output: t.output })("q", SCHEMA)).toEqual({ action: "decline" });
    const optional = { ...SCHEMA, required: [] };
    expect(await terminalElicit({ toolName: "order_pizza", yes: true, input: t.input, output: t.output })("q", optional)).toEqual({
      action: "accept",
      content: { name: "Margherita" },
    });
    const pipe = Object.assign(new PassThrough(), { isTTY: false });
    expect(await terminalElicit({ toolName: "order_pizza", yes: false, input: pipe, output: t.output })("q", SCHEMA)).toMatchObject({ action: "not-admitted" });
    expect(t.shown()).toContain('toolroom: order_pizza asked "q" and there is no terminal to ask on (--yes accepts the defaults).');
  });
});
