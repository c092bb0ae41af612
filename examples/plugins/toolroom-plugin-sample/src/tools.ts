import fs from "node:fs/promises";
import path from "node:path";
import { defineTool, pathArgument } from "toolroom-plugin-kit";
import { z } from "zod";

/** A read-only tool: no confirmation, no side effects. */
export const sampleWordCount = defineTool({
  name: "sample_word_count",
  description: `Count the words, lines and characters of a piece of text.

Args: text — the text to measure.
Returns one line: "words=N lines=N chars=N".`,
  input: z.object({ text: z.string().describe("The text to measure") }),
  readonly: true,
  execute: async ({ text }) => counts(text),
});

/** Reads a file the safe way: ctx.files applies the built-ins' sandbox (.., symlinks, .aiignore). */
export const sampleFileStats = defineTool({
  name: "sample_file_stats",
  description: `Count the words, lines and characters of a text file inside the source root.

Args: path — the file, relative to the source root.
Returns one line: "words=N lines=N chars=N", or a line starting with "Error:" for a missing,
binary, out-of-root or .aiignored file.`,
  input: z.object({ path: pathArgument(z.string().describe("The file to measure, relative to the source root")) }),
  readonly: true,
  // A refusal throws a FileAccessError; Toolroom returns it to the model as "Error: <message>".
  execute: async ({ path: file }, ctx) => counts(await ctx.files.read(file)),
});

/** Changes state, so it asks a human first and tells the model plainly when it was not allowed. */
export const sampleSaveNote = defineTool({
  name: "sample_save_note",
  description: `Save a short note to .toolroom/notes/<title>.md in the source root (creates or replaces that file).

Args: title — file name without extension (letters, digits, dashes); body — the note's text.
Returns the path written, or a line starting with "Error:".`,
  input: z.object({
    title: z
      .string()
      .regex(/^[A-Za-z0-9-]{1,60}$/)
      .describe("File name without extension (letters, digits, dashes)"),
    body: z.string().max(10000).describe("The note's text"),
  }),
  readonly: false,
  confirm: {
    evaluate: () => true,
    when: "before every note it writes",
    // `why.kind` says which case it was; `${why}` alone would print the sentence (why.message).
    notAdmitted: ({ title }, why) =>
      why.kind === "denied"
        ? `Not written: the user declined the note "${title}"${why.reason ? ` (reason: ${why.reason})` : ""}. Do not retry; ask what they want instead.`
        : why.kind === "timed-out"
          ? `Not written: nobody approved the note "${title}" in time.`
          : `Not written: writing notes needs a human's approval, and this chat is unsupervised.`,
  },
  execute: async ({ title, body }, ctx) => {
    const file = ctx.files.resolve(`.toolroom/notes/${title}.md`);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, body.endsWith("\n") ? body : `${body}\n`);
    return { output: `Wrote ${path.relative(ctx.files.resolve("."), file)}`, madeChanges: true };
  },
});

function counts(text: string): string {
  const words = text.trim() ? text.trim().split(/\s+/).length : 0;
  return `words=${words} lines=${text.split("\n").length} chars=${text.length}`;
}
