import { describe, expect, it } from "vitest";
import { buildToolPrompt, readToolPrompt, PLUGIN_HEADING } from "./prompt";
import { TEXT_PROTOCOLS, type PromptTool, type TextProtocol } from "./types";

const BUILTINS: PromptTool[] = [
  {
    name: "list_files",
    description: "List files and directories under a path in the source root.\n\nArgs: path — relative to the root.",
    inputJsonSchema: { type: "object", properties: { path: { type: "string", default: "." } } },
    sourcePackage: "toolroom",
    builtin: true,
  },
  {
    name: "read_file",
    description: '  Read one text file from the source root.\nReturns the content, or a line starting with "Error:".',
    inputJsonSchema: {
      type: "object",
      properties: { path: { type: "string" }, maxLines: { type: "integer" } },
      required: ["path"],
    },
    sourcePackage: "toolroom",
    builtin: true,
  },
  {
    name: "grep_code",
    description: "Search the source root for a regular expression.",
    inputJsonSchema: {
      type: "object",
      properties: {
        pattern: { type: "string" },
        ignoreCase: { type: "boolean" },
        mode: { enum: ["lines", "files"] },
        globs: { type: "array", items: { type: "string" } },
      },
    },
    sourcePackage: "toolroom",
    builtin: true,
  },
  {
    name: "list_runs",
    description: "List the runs found under the runs root, newest first.",
    inputJsonSchema: { type: "object", properties: {} },
    sourcePackage: "toolroom",
    builtin: true,
  },
];

const PLUGINS: PromptTool[] = [
  {
    name: "read_fabric_counters",
    description: "Read the Infinity Fabric performance counters for one node.\n\nArgs: node — hostname as shown by list_runs.",
    inputJsonSchema: { type: "object", properties: { node: { type: "string" } }, required: ["node"] },
    sourcePackage: "toolroom-plugin-fabric",
    builtin: false,
  },
];

/** The golden files hold the prompts byte for byte; `npx vitest run -u` rewrites them (review the diff). */
const golden = (name: string) => `./__golden__/${name}`;

describe.each<TextProtocol>([...TEXT_PROTOCOLS])("%s prompt", (protocol) => {
  it("matches the built-ins-only golden file", async () => {
    await expect(buildToolPrompt(protocol, BUILTINS)).toMatchFileSnapshot(golden(`${protocol}-builtins.txt`));
  });

  it("is byte-identical with no plugins installed", async () => {
    const prompt = buildToolPrompt(protocol, [...BUILTINS]);
    await expect(prompt).toMatchFileSnapshot(golden(`${protocol}-builtins.txt`));
    expect(prompt).not.toContain(PLUGIN_HEADING);
    expect(prompt).not.toContain("[from ");
  });

  it("adds the plugin section only when plugins contribute tools", async () => {
    const prompt = buildToolPrompt(protocol, [...PLUGINS, ...BUILTINS]);
    await expect(prompt).toMatchFileSnapshot(golden(`${protocol}-plugins.txt`));
    expect(prompt.startsWith(buildToolPrompt(protocol, BUILTINS))).toBe(true);
  });

  it("is read back by readToolPrompt (the offline model's view)", () => {
    const read = readToolPrompt(`You are helpful.\n\n${buildToolPrompt(protocol, [...BUILTINS, ...PLUGINS])}`);
    expect(read?.protocol).toBe(protocol);
    expect(read?.tools.map((t) => t.name)).toEqual([...BUILTINS, ...PLUGINS].map((t) => t.name));
    expect(read?.tools[1]).toEqual({ name: "read_file", args: { path: "…", maxLines: 1 }, summary: expect.any(String) });
    expect(read?.tools.at(-1)?.summary).not.toContain("[from ");
  });
});

it("readToolPrompt ignores prompts it did not write", () => {
  expect(readToolPrompt('You are a helpful assistant.\n1. list_files(path=".") - x')).toBeNull();
});
