import { describe, expect, it } from "vitest";
import { createTextCallParser } from "./parser";
import { parseChunks, randomChunks, rng } from "@/lib/testing/text-protocol-chunks";
import type { ParseEvent, TextProtocol } from "./types";

const ACTION_REPLY =
  'Let me look.\nI\'ll check `ACTION: x()` first.\n  ACTION: list_files(path="lib/a \\"b\\" (c)", depth=2, all=True, tags=["x", \'y)\'], opts={"k": [1, {"z": null}]})\nand then ignored';
const ACTION_EXPECTED: ParseEvent[] = [
  { type: "text", text: "Let me look.\nI'll check `ACTION: x()` first.\n  " },
  {
    type: "call",
    toolName: "list_files",
    input: { path: 'lib/a "b" (c)', depth: 2, all: true, tags: ["x", "y)"], opts: { k: [1, { z: null }] } },
    raw: 'ACTION: list_files(path="lib/a \\"b\\" (c)", depth=2, all=True, tags=["x", \'y)\'], opts={"k": [1, {"z": null}]})',
  },
];

const JSON_REPLY = 'Reading.\n<tool_call>{"name": "read_file", "arguments": {"path": "a</tool_call>b", "q": "\\"}{"}}</tool_call>\nThen more.';
const JSON_EXPECTED: ParseEvent[] = [
  { type: "text", text: "Reading.\n" },
  {
    type: "call",
    toolName: "read_file",
    input: { path: "a</tool_call>b", q: '"}{' },
    raw: '<tool_call>{"name": "read_file", "arguments": {"path": "a</tool_call>b", "q": "\\"}{"}}</tool_call>',
  },
];

const cases: [TextProtocol, string, ParseEvent[]][] = [
  ["action", ACTION_REPLY, ACTION_EXPECTED],
  ["json", JSON_REPLY, JSON_EXPECTED],
];

describe.each(cases)("%s protocol: chunking", (protocol, reply, expected) => {
  it("parses the whole reply at once", () => {
    expect(parseChunks(protocol, [reply]).events).toEqual(expected);
  });

  it("gives the same result for every split point", () => {
    for (let i = 0; i <= reply.length; i++) {
      expect(parseChunks(protocol, [reply.slice(0, i), reply.slice(i)]).events, `split at ${i}`).toEqual(expected);
    }
  });

  it("gives the same result for every pair of split points", () => {
    for (let i = 0; i <= reply.length; i += 3) {
      for (let j = i; j <= reply.length; j += 2) {
        const chunks = [reply.slice(0, i), reply.slice(i, j), reply.slice(j)];
        expect(parseChunks(protocol, chunks).events, `split at ${i},${j}`).toEqual(expected);
      }
    }
  });

  it("gives the same result one character at a time and in random 1–64 character chunks", () => {
    expect(parseChunks(protocol, [...reply]).events).toEqual(expected);
    const random = rng(42);
    for (let n = 0; n < 300; n++) {
      expect(parseChunks(protocol, randomChunks(reply, random)).events).toEqual(expected);
    }
  });

  it("never emits part of a call as text", () => {
    const prose = (expected[0] as { text: string }).text;
    const parser = createTextCallParser(protocol, ["list_files", "read_file"]);
    let shown = "";
    for (const c of reply) {
      for (const event of parser.push(c)) if (event.type === "text") shown += event.text;
      expect(prose.startsWith(shown), JSON.stringify(shown)).toBe(true);
    }
    for (const event of parser.end()) if (event.type === "text") shown += event.text;
    expect(shown).toBe(prose);
  });

  it("reports the text after the call as dropped", () => {
    expect(parseChunks(protocol, [reply]).droppedChars).toBeGreaterThan(0);
  });
});

describe("hold-back", () => {
  it("holds a possible marker at a line start until it is decided", () => {
    const parser = createTextCallParser("action", ["list_files"]);
    expect(parser.push("Sure.\nACT")).toEqual([{ type: "text", text: "Sure.\n" }]);
    expect(parser.push("ION")).toEqual([]);
    expect(parser.push(": list_files(pa")).toEqual([]);
    expect(parser.push('th=".")')).toEqual([{ type: "call", toolName: "list_files", input: { path: "." }, raw: 'ACTION: list_files(path=".")' }]);
  });

  it("releases a held prefix that turns out to be prose", () => {
    const parser = createTextCallParser("action", ["list_files"]);
    expect(parser.push("ACT")).toEqual([]);
    expect(parser.push("IVE users")).toEqual([{ type: "text", text: "ACTIVE users" }]);
    const json = createTextCallParser("json", ["list_files"]);
    expect(json.push("<tool_")).toEqual([]);
    expect(json.end()).toEqual([{ type: "text", text: "<tool_" }]);
  });
});

describe("prose that mentions the format", () => {
  it("ignores calls inside a code fence, inline code, or mid-line", () => {
    const text = [
      "Use this format:",
      "```",
      'ACTION: list_files(path=".")',
      "```",
      "~~~~",
      "```js",
      'ACTION: read_file(path="x")',
      "~~~~",
      'Inline `ACTION: list_files(path=".")` and mid-line ACTION: list_files() stay prose.',
      "",
    ].join("\n");
    expect(parseChunks("action", [text]).events).toEqual([{ type: "text", text }]);
    const json = '```\n<tool_call>{"name": "read_file", "arguments": {}}</tool_call>\n```\nsee <tool_call> above';
    expect(parseChunks("json", [json]).events).toEqual([{ type: "text", text: json }]);
  });

  it("finds a call after a fence closes; ```js inside a fence does not close it", () => {
    const text = '```\n```js\nACTION: list_files()\n```\nACTION: read_file(path="a")';
    const { events } = parseChunks("action", [text]);
    expect(events).toEqual([
      { type: "text", text: "```\n```js\nACTION: list_files()\n```\n" },
      { type: "call", toolName: "read_file", input: { path: "a" }, raw: 'ACTION: read_file(path="a")' },
    ]);
  });
});

describe("two calls in one reply", () => {
  it.each<[TextProtocol, string]>([
    ["action", 'ACTION: list_files(path="a")\nACTION: read_file(path="b")'],
    [
      "json",
      '<tool_call>{"name": "list_files", "arguments": {"path": "a"}}</tool_call>\n<tool_call>{"name": "read_file", "arguments": {"path": "b"}}</tool_call>',
    ],
  ])("%s: uses only the first", (protocol, text) => {
    const { events, droppedChars } = parseChunks(protocol, [text]);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: "call", toolName: "list_files", input: { path: "a" } });
    expect(droppedChars).toBeGreaterThan(20);
  });
});

describe("malformed calls", () => {
  const malformed = (protocol: TextProtocol, text: string) => {
    const { events } = parseChunks(protocol, [text]);
    const event = events.at(-1);
    if (event?.type !== "malformed") throw new Error(`expected malformed, got ${JSON.stringify(events)}`);
    return event;
  };

  it("unknown tool: names the available tools", () => {
    const e = malformed("action", "ACTION: delete_all(force=true)");
    expect(e).toMatchObject({ toolName: "delete_all", raw: "ACTION: delete_all(force=true)" });
    expect(e.error).toContain("Unknown tool");
    expect(e.error).toContain("list_files, read_file, grep_code");
    expect(malformed("json", '<tool_call>{"name": "nope", "arguments": {}}</tool_call>').error).toContain("Unknown tool");
  });

  it.each([
    ['ACTION: read_file("README.md")', "positional"],
    ["ACTION: read_file(path=README)", "must be a literal"],
    ['ACTION: read_file(path="a" + "b")', "expressions are not allowed"],
    ["ACTION: read_file(path=open('x'))", "Function calls"],
    ['ACTION: read_file(**{"path": "a"})', "unpacking"],
    ['ACTION: read_file(path="a", path="b")', "given twice"],
    ['ACTION: read_file(path=f"a")', "String prefixes"],
    ["ACTION: read_file(path=1])", "Unbalanced"],
    ["ACTION: read_file(path=[1, 2))", "Expected `,` or `]`"],
    ['ACTION: read_file(path="abc', "cut off inside a string"],
    ["ACTION: read_file(path=1", "cut off before its closing"],
    ["ACTION: read_file", "cut off"],
    ["ACTION: read_file now please", 'Expected "("'],
    ["ACTION: 42", "Expected a tool name"],
  ])("%s → %s", (text, message) => {
    expect(malformed("action", text).error).toContain(message);
  });

  it("a malformed line ends at its newline and the rest is dropped", () => {
    const { events, droppedChars } = parseChunks("action", ["ACTION: read_file now\nmore text"]);
    expect(events).toEqual([{ type: "malformed", raw: "ACTION: read_file now", error: expect.stringContaining('Expected "("'), toolName: "read_file" }]);
    expect(droppedChars).toBe(8);
  });

  it.each([
    ['<tool_call>{"name": "read_file", "arguments": {"path": }}</tool_call>', "not valid JSON"],
    ['<tool_call>{"tool": "read_file"}</tool_call>', 'must be a JSON object with "name"'],
    ['<tool_call>{"name": "read_file", "arguments": [1]}</tool_call>', '"arguments"'],
    ['<tool_call>{"name": "read_file", "arguments": {"path": "a', "cut off inside a JSON string"],
    ['<tool_call>{"name": "read_file", "arguments": {"path": "a"}', "cut off before"],
  ])("json %s → %s", (text, message) => {
    expect(malformed("json", text).error).toContain(message);
  });
});

describe("json protocol leniency", () => {
  it("accepts a finished object whose </tool_call> was forgotten, and stringified arguments", () => {
    expect(parseChunks("json", ['<tool_call>\n{"name": "read_file", "arguments": {"path": "a"}}\nWaiting.']).events).toEqual([
      { type: "call", toolName: "read_file", input: { path: "a" }, raw: '<tool_call>\n{"name": "read_file", "arguments": {"path": "a"}}' },
    ]);
    expect(parseChunks("json", ['<tool_call>{"name": "read_file", "arguments": {"path": "a"}}']).events[0]).toMatchObject({
      type: "call",
    });
    expect(parseChunks("json", ['<tool_call>{"name": "read_file", "arguments": "{\\"path\\": \\"a\\"}"}</tool_call>']).events[0]).toMatchObject({
      type: "call",
      input: { path: "a" },
    });
  });
});

describe("mixed prose and calls at scale", () => {
  it("is linear: a long stream in small chunks parses like the whole", () => {
    const para = 'Some prose with `code`, quotes "x" and ACTION: mid-line.\n```\nACTION: list_files()\n```\n';
    const text = `${para.repeat(2000)}ACTION: grep_code(pattern="a\\nb")`;
    const random = rng(7);
    const { events } = parseChunks("action", randomChunks(text, random));
    expect(events).toEqual([
      { type: "text", text: para.repeat(2000) },
      { type: "call", toolName: "grep_code", input: { pattern: "a\nb" }, raw: 'ACTION: grep_code(pattern="a\\nb")' },
    ]);
  });
});
