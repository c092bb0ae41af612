import fs from "node:fs/promises";
import path from "node:path";
import { defineTool } from "toolroom-plugin-kit";
import { z } from "zod";

/** A read-only tool: no confirmation, no side effects. */
export const countWords = defineTool({
  name: "count_words",
  description: `Count the words, lines and characters of a piece of text.

Args: text — the text to measure.
Returns one line: "words=N lines=N chars=N".`,
  input: z.object({ text: z.string().describe("The text to measure") }),
  readonly: true,
  execute: async ({ text }) => {
    const words = text.trim() ? text.trim().split(/\s+/).length : 0;
    return `words=${words} lines=${text.split("\n").length} chars=${text.length}`;
  },
});

/** Changes state, so it asks a human first and tells the model plainly when it was not allowed. */
export const writeNote = defineTool({
  name: "write_note",
  description: `Write a short note to .toolroom/notes/<title>.md in the source root.

Args: title — file name without extension (letters, digits, dashes); body — the note's text.
Returns the path written, or a line starting with "Error:".`,
  input: z.object({
    title: z
      .string()
      .regex(/^[A-Za-z0-9-]{1,60}$/)
      .describe("File name without extension"),
    body: z.string().max(10000).describe("The note's text"),
  }),
  readonly: false,
  confirm: {
    evaluate: () => true,
    // `why.kind` says which case it was; `${why}` alone would print the sentence (why.message).
    notAdmitted: ({ title }, why) =>
      why.kind === "denied"
        ? `Not written: the user declined the note "${title}"${why.reason ? ` (reason: ${why.reason})` : ""}. Do not retry; ask what they want instead.`
        : why.kind === "timed-out"
          ? `Not written: nobody approved the note "${title}" in time.`
          : `Not written: writing notes needs a human's approval, and this chat is unsupervised.`,
  },
  execute: async ({ title, body }, ctx) => {
    const file = path.join(ctx.sourceRoot, ".toolroom", "notes", `${title}.md`);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, body.endsWith("\n") ? body : `${body}\n`);
    return { output: `Wrote ${path.relative(ctx.sourceRoot, file)}`, madeChanges: true };
  },
});
