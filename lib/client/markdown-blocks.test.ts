import { describe, expect, it } from "vitest";
import { markdownBlocks } from "./markdown-blocks";

describe("markdownBlocks", () => {
  it("cuts at blank lines between top-level blocks, and joins back to the text", () => {
    const text = "# Title\n\nA paragraph\nwith two lines.\n\nAnother one.";
    expect(markdownBlocks(text)).toEqual(["# Title", "A paragraph\nwith two lines.", "Another one."]);
    expect(markdownBlocks(text).join("\n\n")).toBe(text);
  });

  it("keeps a fenced code block whole, blank lines inside included", () => {
    const text = "Before.\n\n```ts\nconst a = 1;\n\n\nconst b = 2;\n```\n\nAfter.";
    expect(markdownBlocks(text)).toEqual(["Before.", "```ts\nconst a = 1;\n\n\nconst b = 2;\n```", "After."]);
  });

  it("keeps an unclosed fence (a message still streaming) as one block", () => {
    expect(markdownBlocks("Intro.\n\n```\ncode\n\nmore")).toEqual(["Intro.", "```\ncode\n\nmore"]);
  });

  it("does not cut a loose list or a list item's indented paragraph", () => {
    const text = "- one\n\n- two\n\n  still two\n\n1. first\n\n2. second\n\nDone.";
    expect(markdownBlocks(text)).toEqual(["- one\n\n- two\n\n  still two\n\n1. first\n\n2. second", "Done."]);
  });

  it("a growing text changes only its last block", () => {
    const done = markdownBlocks("Para one.\n\nPara two.\n\nPara th");
    const more = markdownBlocks("Para one.\n\nPara two.\n\nPara three is longer");
    expect(more.slice(0, -1)).toEqual(done.slice(0, -1));
  });

  it("leaves a text without blank lines alone", () => {
    expect(markdownBlocks("")).toEqual([""]);
    expect(markdownBlocks("one line")).toEqual(["one line"]);
  });
});
