import { describe, expect, it } from "vitest";
import { descriptionBlocks, inlineCode } from "./description-blocks";

describe("descriptionBlocks", () => {
  it("splits the sample plugin's docstring into a summary, Args items and Returns", () => {
    const blocks = descriptionBlocks(`Write a short note to .toolroom/notes/<title>.md in the source root.

Args: title — file name without extension (letters, digits, dashes); body — the note's text.
Returns the path written, or a line starting with "Error:".`);
    expect(blocks[0]).toEqual({ kind: "paragraph", text: "Write a short note to .toolroom/notes/<title>.md in the source root." });
    expect(blocks[1]).toEqual({
      kind: "section",
      title: "Args",
      items: [
        { term: "title", text: "file name without extension (letters, digits, dashes)" },
        { term: "body", text: "the note's text" },
      ],
    });
    expect(blocks[2]).toEqual({ kind: "section", title: "Returns", text: 'the path written, or a line starting with "Error:".', items: [] });
  });

  it("dedents template-literal descriptions and reads multi-line Args", () => {
    const blocks = descriptionBlocks(`Read counters.

    Args:
      node: hostname as shown
        by list_runs
      limit: at most this many
    Returns: one counter per line.`);
    expect(blocks[1]).toEqual({
      kind: "section",
      title: "Args",
      items: [
        { term: "node", text: "hostname as shown by list_runs" },
        { term: "limit", text: "at most this many" },
      ],
    });
    expect(blocks[2]).toMatchObject({ kind: "section", title: "Returns", text: "one counter per line.", items: [] });
  });

  it("keeps fenced code and bullet lists", () => {
    const blocks = descriptionBlocks('Run it.\n\n```json\n{"a": 1}\n```\n\n- one\n- two\n  more');
    expect(blocks).toEqual([
      { kind: "paragraph", text: "Run it." },
      { kind: "code", text: '{"a": 1}', lang: "json" },
      { kind: "list", items: ["one", "two more"] },
    ]);
  });

  it("splits inline code spans", () => {
    expect(inlineCode("use `grep -n` here")).toEqual([
      { code: false, text: "use " },
      { code: true, text: "grep -n" },
      { code: false, text: " here" },
    ]);
  });
});

describe("a sentence after an Args section's entries", () => {
  it("is a paragraph of its own, not text of the Args section", () => {
    const blocks = descriptionBlocks("Append a note to notes.md.\n\nArgs:\n  note: the text to append\nAsks first when the note is longer than 20 characters.");
    expect(blocks).toEqual([
      { kind: "paragraph", text: "Append a note to notes.md." },
      { kind: "section", title: "Args", items: [{ term: "note", text: "the text to append" }] },
      { kind: "paragraph", text: "Asks first when the note is longer than 20 characters." },
    ]);
  });
});
