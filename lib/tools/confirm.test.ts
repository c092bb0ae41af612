import { describe, expect, it } from "vitest";
import { z } from "zod";
import { notAdmittedText, notAdmittedWhy } from "./confirm";
import { defineTool } from "./define";
import type { NotAdmittedWhy } from "./types";

describe("notAdmitted's why", () => {
  const seen: NotAdmittedWhy[] = [];
  const tool = defineTool({
    name: "write_note",
    description: "Write a note.",
    input: z.object({ title: z.string() }),
    confirm: {
      evaluate: () => true,
      notAdmitted: ({ title }, why) => {
        seen.push(why);
        // What a plugin author writes; typescript-eslint's strict template rule would want String(why).
        // eslint-disable-next-line @typescript-eslint/restrict-template-expressions
        return `Not written "${title}": ${why}`;
      },
    },
    execute: () => "ok",
  });

  it("prints as a sentence in a template string, for each kind", () => {
    expect(notAdmittedText(tool, { title: "a" }, { kind: "denied", reason: "not now" })).toBe('Not written "a": A person denied the call: not now.');
    expect(notAdmittedText(tool, { title: "a" }, { kind: "denied" })).toBe('Not written "a": A person denied the call.');
    expect(notAdmittedText(tool, { title: "a" }, { kind: "timed-out" })).toBe('Not written "a": Nobody approved the call in time, so it did not run.');
    expect(notAdmittedText(tool, { title: "a" }, { kind: "unsupervised" })).toContain("nobody is supervising");
    expect(seen.map(String).join("\n")).not.toContain("[object Object]");
  });

  it("keeps the structured fields, and JSON shows them with the message", () => {
    const why = notAdmittedWhy({ kind: "denied", reason: "wrong file" });
    expect(why.kind).toBe("denied");
    expect(why.kind === "denied" && why.reason).toBe("wrong file");
    expect(why.message).toBe("A person denied the call: wrong file.");
    expect(JSON.parse(JSON.stringify(why))).toEqual({ kind: "denied", reason: "wrong file", message: "A person denied the call: wrong file." });
  });
});
