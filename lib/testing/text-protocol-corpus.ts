// The golden corpus: model replies written for each protocol from its documentation (Hermes/Qwen
// chat templates, Llama 3.1 JSON tool calling, Mistral's [TOOL_CALLS], <function_calls> blocks,
// AORTA's ACTION and JSON tags), with the parse each must give. corpus.test.ts runs them whole,
// split at every chunk boundary, and one character at a time.
import type { TextProtocol, ToolInput } from "@/lib/chat/text-protocol/types";

export type Expected = { text: string } | { call: string; input: ToolInput; repaired?: string } | { malformed: string; toolName?: string };

export interface CorpusCase {
  protocol: TextProtocol;
  name: string;
  reply: string;
  expected: Expected[];
}

const text = (t: string): Expected => ({ text: t });
const call = (name: string, input: ToolInput, repaired?: string): Expected => (repaired ? { call: name, input, repaired } : { call: name, input });
const bad = (error: string, toolName?: string): Expected => (toolName ? { malformed: error, toolName } : { malformed: error });

/** How each JSON protocol wraps one call object (the body says "arguments"; llama says "parameters"). */
const JSON_WRAP: Record<"json" | "hermes" | "llama" | "mistral", (body: string) => string> = {
  json: (body) => `<tool_call>${body}</tool_call>`,
  hermes: (body) => `<tool_call>\n${body}\n</tool_call>`,
  llama: (body) => body.replace('"arguments"', '"parameters"').replace("'arguments'", "'parameters'").replace("arguments:", "parameters:"),
  mistral: (body) => `[TOOL_CALLS] [${body}]`,
};

/** The near-misses every JSON protocol repairs, as call bodies, and the label each gets. */
const REPAIRABLE: [string, string, ToolInput, string][] = [
  ["trailing comma", '{"name": "read_file", "arguments": {"path": "README.md",},}', { path: "README.md" }, "trailing comma"],
  ["single quotes", "{'name': 'read_file', 'arguments': {'path': 'lib/a.ts'}}", { path: "lib/a.ts" }, "single quotes"],
  ["unquoted keys", '{name: "list_files", arguments: {path: "src"}}', { path: "src" }, "unquoted keys"],
  [
    "Python literals",
    '{"name": "grep_code", "arguments": {"pattern": "TODO", "ignoreCase": True, "globs": None}}',
    { pattern: "TODO", ignoreCase: true, globs: null },
    "Python literals",
  ],
  ["arguments as a JSON string", '{"name": "read_file", "arguments": "{\\"path\\": \\"x.md\\"}"}', { path: "x.md" }, "arguments given as a JSON string"],
  ["wrong-case tool name", '{"name": "List_Files", "arguments": {"path": "."}}', { path: "." }, "tool name case"],
  ["two near-misses at once", "{'name': 'read_file', 'arguments': {'path': 'a', 'maxLines': 5,}}", { path: "a", maxLines: 5 }, "single quotes, trailing comma"],
];

/** Bodies no repair is allowed to guess at: each must come back as a precise error. */
const UNREPAIRABLE: [string, string, string, string?][] = [
  ["bare word value", '{"name": "read_file", "arguments": {"path": README}}', "bare word README", "read_file"],
  ["missing value", '{"name": "read_file", "arguments": {"path": }}', "value is missing", "read_file"],
  ["missing comma", '{"name": "read_file" "arguments": {"path": "a"}}', "not valid JSON", "read_file"],
  ["unknown tool", '{"name": "delete_everything", "arguments": {}}', "Unknown tool", "delete_everything"],
  ["arguments not an object", '{"name": "read_file", "arguments": ["a"]}', "must be a JSON object of argument names", "read_file"],
  ["arguments string not JSON", '{"name": "read_file", "arguments": "path=a"}', "is a string that is not a JSON object", "read_file"],
];

function jsonProtocolCases(protocol: "json" | "hermes" | "llama" | "mistral"): CorpusCase[] {
  const wrap = JSON_WRAP[protocol];
  const one = (name: string, input: ToolInput) => wrap(JSON.stringify({ name, arguments: input }).replace(/,"/g, ', "').replace(/":/g, '": '));
  const cases: CorpusCase[] = [
    { protocol, name: "a single call", reply: one("list_files", { path: "lib" }), expected: [call("list_files", { path: "lib" })] },
    {
      protocol,
      name: "prose, then a call",
      reply: `I'll look at the folder first.\n${one("list_files", { path: "app" })}`,
      expected: [text("I'll look at the folder first.\n"), call("list_files", { path: "app" })],
    },
    {
      protocol,
      name: "strings with quotes, braces and the closing syntax inside",
      reply: one("grep_code", { pattern: '"}]</tool_call>[/TOOL_CALLS]{', ignoreCase: false }),
      expected: [call("grep_code", { pattern: '"}]</tool_call>[/TOOL_CALLS]{', ignoreCase: false })],
    },
    {
      protocol,
      name: "unicode and escapes in arguments",
      reply: one("read_file", { path: "docs/über ✓\n\ttab.md" }),
      expected: [call("read_file", { path: "docs/über ✓\n\ttab.md" })],
    },
    {
      protocol,
      name: "prose that mentions the syntax mid-line",
      reply: `Calls look like ${one("list_files", {}).replace(/\n/g, " ")} when I make them; none now.`,
      expected: [text(`Calls look like ${one("list_files", {}).replace(/\n/g, " ")} when I make them; none now.`)],
    },
    {
      protocol,
      name: "a fenced example is not a call",
      reply: `For example:\n\`\`\`\n${one("read_file", { path: "x" })}\n\`\`\`\nThat is the format.`,
      expected: [text(`For example:\n\`\`\`\n${one("read_file", { path: "x" })}\n\`\`\`\nThat is the format.`)],
    },
    {
      protocol,
      name: "inline code is not a call",
      reply: `Use \`${one("list_files", {}).replace(/\n/g, " ")}\` to list files.`,
      expected: [text(`Use \`${one("list_files", {}).replace(/\n/g, " ")}\` to list files.`)],
    },
  ];
  for (const [label, body, input, repaired] of REPAIRABLE) {
    const name =
      label === "wrong-case tool name" ? "list_files" : label === "Python literals" ? "grep_code" : label === "unquoted keys" ? "list_files" : "read_file";
    cases.push({ protocol, name: `repairs: ${label}`, reply: `Checking.\n${wrap(body)}`, expected: [text("Checking.\n"), call(name, input, repaired)] });
  }
  for (const [label, body, error, toolName] of UNREPAIRABLE) {
    cases.push({ protocol, name: `unrepairable: ${label}`, reply: wrap(body), expected: [bad(error, toolName)] });
  }
  return cases;
}

const multiJson: CorpusCase[] = [
  {
    protocol: "hermes",
    name: "several calls, Qwen style",
    reply:
      'I will list both folders.\n<tool_call>\n{"name": "list_files", "arguments": {"path": "lib"}}\n</tool_call>\n<tool_call>\n{"name": "list_files", "arguments": {"path": "app"}}\n</tool_call>',
    expected: [text("I will list both folders.\n"), call("list_files", { path: "lib" }), call("list_files", { path: "app" })],
  },
  {
    protocol: "hermes",
    name: "a call with a fenced JSON body",
    reply: '<tool_call>\n```json\n{"name": "read_file", "arguments": {"path": "a.ts"}}\n```\n</tool_call>',
    expected: [call("read_file", { path: "a.ts" }, "fenced JSON")],
  },
  {
    protocol: "hermes",
    name: "forgotten closing tag, then prose",
    reply: '<tool_call>\n{"name": "list_files", "arguments": {}}\nLet me know.',
    expected: [call("list_files", {}), text("Let me know.")],
  },
  {
    protocol: "hermes",
    name: "a good call and a broken one",
    reply: '<tool_call>\n{"name": "list_files", "arguments": {}}\n</tool_call>\n<tool_call>\n{"name": "read_file", "arguments": {"path": }}\n</tool_call>',
    expected: [call("list_files", {}), bad("value is missing", "read_file")],
  },
  {
    protocol: "hermes",
    name: "cut off inside a string",
    reply: '<tool_call>\n{"name": "read_file", "arguments": {"path": "lib/',
    expected: [bad("cut off inside a JSON string")],
  },
  {
    protocol: "json",
    name: "only the first of two calls (AORTA)",
    reply: '<tool_call>{"name": "list_files", "arguments": {}}</tool_call>\n<tool_call>{"name": "read_file", "arguments": {"path": "a"}}</tool_call>',
    expected: [call("list_files", {})],
  },
  {
    protocol: "json",
    name: "a call with a fenced JSON body",
    reply: '<tool_call>```json\n{"name": "read_file", "arguments": {"path": "b"}}\n```</tool_call>',
    expected: [call("read_file", { path: "b" }, "fenced JSON")],
  },
  {
    protocol: "llama",
    name: "with <|python_tag|>",
    reply: '<|python_tag|>{"name": "list_files", "parameters": {"path": "bench"}}',
    expected: [call("list_files", { path: "bench" })],
  },
  {
    protocol: "llama",
    name: "several calls separated by semicolons",
    reply: '{"name": "list_files", "parameters": {}}; {"name": "read_file", "parameters": {"path": "README.md"}}',
    expected: [call("list_files", {}), call("read_file", { path: "README.md" })],
  },
  {
    protocol: "llama",
    name: "several calls on their own lines",
    reply: 'Two reads.\n{"name": "read_file", "parameters": {"path": "a"}}\n{"name": "read_file", "parameters": {"path": "b"}}\nDone calling.',
    expected: [text("Two reads.\n"), call("read_file", { path: "a" }), call("read_file", { path: "b" }), text("Done calling.")],
  },
  {
    protocol: "llama",
    name: "a JSON line that is not a call stays prose",
    reply: 'The config is:\n{"debug": true, "level": 3}\nThat is all.',
    expected: [text('The config is:\n{"debug": true, "level": 3}\nThat is all.')],
  },
  {
    protocol: "llama",
    name: "a braces line in prose stays prose",
    reply: "{braces} mark sets in this notation.\nNo call here.",
    expected: [text("{braces} mark sets in this notation.\nNo call here.")],
  },
  {
    protocol: "llama",
    name: "an unclosed brace in prose stays prose",
    reply: "{ this line opens a brace and never closes it",
    expected: [text("{ this line opens a brace and never closes it")],
  },
  {
    protocol: "llama",
    name: "cut off mid-call",
    reply: '{"name": "read_file", "parameters": {"path": "a"',
    expected: [bad("cut off before its JSON value ended")],
  },
  {
    protocol: "llama",
    name: "python_tag with broken JSON is an error, not prose",
    reply: "<|python_tag|>{'name': 'read_file', 'parameters': {'path': open}}",
    expected: [bad("bare word open", "read_file")],
  },
  {
    protocol: "mistral",
    name: "several calls in one list",
    reply: '[TOOL_CALLS] [{"name": "list_files", "arguments": {"path": "lib"}}, {"name": "grep_code", "arguments": {"pattern": "TODO"}}]',
    expected: [call("list_files", { path: "lib" }), call("grep_code", { pattern: "TODO" })],
  },
  {
    protocol: "mistral",
    name: "a single object without the list",
    reply: '[TOOL_CALLS] {"name": "list_files", "arguments": {}}',
    expected: [call("list_files", {})],
  },
  {
    protocol: "mistral",
    name: "two [TOOL_CALLS] lines",
    reply: '[TOOL_CALLS] [{"name": "list_files", "arguments": {}}]\n[TOOL_CALLS] [{"name": "read_file", "arguments": {"path": "z"}}]',
    expected: [call("list_files", {}), call("read_file", { path: "z" })],
  },
  {
    protocol: "mistral",
    name: "one good and one unknown call in a list",
    reply: '[TOOL_CALLS] [{"name": "list_files", "arguments": {}}, {"name": "rm", "arguments": {}}]',
    expected: [call("list_files", {}), bad("Unknown tool", "rm")],
  },
  {
    protocol: "mistral",
    name: "an empty list",
    reply: "[TOOL_CALLS] []",
    expected: [bad("list is empty")],
  },
  {
    protocol: "mistral",
    name: "the name[ARGS] form is answered with the expected shape",
    reply: '[TOOL_CALLS]list_files[ARGS]{"path": "."}',
    expected: [bad("not valid JSON"), text('{"path": "."}')],
  },
];

const XML_ONE =
  '<function_calls>\n<invoke name="read_file">\n<parameter name="path">lib/a.ts</parameter>\n<parameter name="maxLines">40</parameter>\n</invoke>\n</function_calls>';

const xml: CorpusCase[] = [
  { protocol: "xml", name: "a single call", reply: XML_ONE, expected: [call("read_file", { path: "lib/a.ts", maxLines: 40 })] },
  {
    protocol: "xml",
    name: "prose, then a call",
    reply: `Reading it.\n${XML_ONE}`,
    expected: [text("Reading it.\n"), call("read_file", { path: "lib/a.ts", maxLines: 40 })],
  },
  {
    protocol: "xml",
    name: "several invokes in one block",
    reply:
      '<function_calls>\n<invoke name="list_files">\n<parameter name="path">lib</parameter>\n</invoke>\n<invoke name="grep_code">\n<parameter name="pattern">TODO</parameter>\n<parameter name="ignoreCase">true</parameter>\n<parameter name="globs">["*.ts"]</parameter>\n</invoke>\n</function_calls>',
    expected: [call("list_files", { path: "lib" }), call("grep_code", { pattern: "TODO", ignoreCase: true, globs: ["*.ts"] })],
  },
  {
    protocol: "xml",
    name: "two blocks",
    reply:
      '<function_calls><invoke name="list_files"></invoke></function_calls>\n<function_calls><invoke name="read_file"><parameter name="path">b</parameter></invoke></function_calls>',
    expected: [call("list_files", {}), call("read_file", { path: "b" })],
  },
  {
    protocol: "xml",
    name: "escaped characters and tags in a value",
    reply: '<function_calls><invoke name="grep_code"><parameter name="pattern">a &lt;b&gt; &amp; "c"</parameter></invoke></function_calls>',
    expected: [call("grep_code", { pattern: 'a <b> & "c"' })],
  },
  {
    protocol: "xml",
    name: "a multi-line string value",
    reply: '<function_calls><invoke name="read_file"><parameter name="path">line one\nline two</parameter></invoke></function_calls>',
    expected: [call("read_file", { path: "line one\nline two" })],
  },
  {
    protocol: "xml",
    name: "the closing tag cut by a stop sequence",
    reply: '<function_calls>\n<invoke name="list_files">\n<parameter name="path">.</parameter>\n</invoke>\n',
    expected: [call("list_files", { path: "." })],
  },
  {
    protocol: "xml",
    name: "prose that mentions the tags mid-line",
    reply: 'I would use <function_calls> with an <invoke name="list_files"> inside, but I don\'t need to.',
    expected: [text('I would use <function_calls> with an <invoke name="list_files"> inside, but I don\'t need to.')],
  },
  {
    protocol: "xml",
    name: "a fenced example is not a call",
    reply: `Format:\n\`\`\`xml\n${XML_ONE}\n\`\`\`\n`,
    expected: [text(`Format:\n\`\`\`xml\n${XML_ONE}\n\`\`\`\n`)],
  },
  {
    protocol: "xml",
    name: "wrong-case tool name",
    reply: '<function_calls><invoke name="READ_FILE"><parameter name="path">a</parameter></invoke></function_calls>',
    expected: [call("read_file", { path: "a" }, "tool name case")],
  },
  {
    protocol: "xml",
    name: "single-quoted attribute",
    reply: "<function_calls><invoke name='list_files'><parameter name='path'>x</parameter></invoke></function_calls>",
    expected: [call("list_files", { path: "x" })],
  },
  {
    protocol: "xml",
    name: "an object-looking string that is not JSON stays a string",
    reply: '<function_calls><invoke name="grep_code"><parameter name="pattern">{not json</parameter></invoke></function_calls>',
    expected: [call("grep_code", { pattern: "{not json" })],
  },
  {
    protocol: "xml",
    name: "unknown tool",
    reply: '<function_calls><invoke name="format_disk"></invoke></function_calls>',
    expected: [bad("Unknown tool", "format_disk")],
  },
  {
    protocol: "xml",
    name: "invoke without a name",
    reply: '<function_calls><invoke tool="list_files"></invoke></function_calls>',
    expected: [bad("needs the tool's name")],
  },
  {
    protocol: "xml",
    name: "unclosed parameter",
    reply: '<function_calls><invoke name="read_file"><parameter name="path">a</invoke></function_calls>',
    expected: [bad("not closed with </parameter>", "read_file")],
  },
  {
    protocol: "xml",
    name: "parameter given twice",
    reply: '<function_calls><invoke name="read_file"><parameter name="path">a</parameter><parameter name="path">b</parameter></invoke></function_calls>',
    expected: [bad("given twice", "read_file")],
  },
  {
    protocol: "xml",
    name: "a block with no invoke",
    reply: "<function_calls>\nlist_files please\n</function_calls>",
    expected: [bad("holds no call")],
  },
  {
    protocol: "xml",
    name: "cut off before any invoke closed",
    reply: '<function_calls>\n<invoke name="read_file">\n<parameter name="path">a',
    expected: [bad("cut off")],
  },
  {
    protocol: "xml",
    name: "a good invoke and a broken one",
    reply: '<function_calls><invoke name="list_files"></invoke><invoke name="nope"></invoke></function_calls>',
    expected: [call("list_files", {}), bad("Unknown tool", "nope")],
  },
];

const action: CorpusCase[] = [
  { protocol: "action", name: "a single call", reply: 'ACTION: list_files(path="lib")', expected: [call("list_files", { path: "lib" })] },
  {
    protocol: "action",
    name: "prose, then a call with nested literals",
    reply: 'Searching.\nACTION: grep_code(pattern="a(b)", globs=["*.ts", \'*.tsx\'], ignoreCase=True)',
    expected: [text("Searching.\n"), call("grep_code", { pattern: "a(b)", globs: ["*.ts", "*.tsx"], ignoreCase: true })],
  },
  { protocol: "action", name: "only the first of two calls", reply: 'ACTION: list_files()\nACTION: read_file(path="a")', expected: [call("list_files", {})] },
  { protocol: "action", name: "wrong-case tool name", reply: 'ACTION: Read_File(path="a")', expected: [call("read_file", { path: "a" }, "tool name case")] },
  {
    protocol: "action",
    name: "mid-line mention is prose",
    reply: "You would write ACTION: list_files() for that.",
    expected: [text("You would write ACTION: list_files() for that.")],
  },
  {
    protocol: "action",
    name: "fenced example is prose",
    reply: '```\nACTION: read_file(path="x")\n```\nLike that.',
    expected: [text('```\nACTION: read_file(path="x")\n```\nLike that.')],
  },
  { protocol: "action", name: "positional argument", reply: 'ACTION: read_file("a")', expected: [bad("positional", "read_file")] },
  { protocol: "action", name: "unknown tool", reply: "ACTION: drop_tables()", expected: [bad("Unknown tool", "drop_tables")] },
  { protocol: "action", name: "cut off", reply: 'ACTION: read_file(path="a', expected: [bad("cut off inside a string", "read_file")] },
];

export const CORPUS: CorpusCase[] = [
  ...jsonProtocolCases("json"),
  ...jsonProtocolCases("hermes"),
  ...jsonProtocolCases("llama"),
  ...jsonProtocolCases("mistral"),
  ...multiJson,
  ...xml,
  ...action,
];
