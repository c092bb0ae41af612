import { describe, expect, it } from "vitest";
import type { ReloadNotice } from "@/lib/server/runtime/reload-diff";
import type { ToolJson } from "@/lib/tools/registry-json";
import type { Diagnostic } from "@/lib/tools/registry-types";
import { pluginsHint, reloadSummary } from "./reload-text";

const notice = (tools: Partial<ReloadNotice["tools"]>, models: Partial<ReloadNotice["models"]> = {}): ReloadNotice => ({
  at: "2026-11-30T14:02:00.000Z",
  ok: true,
  trigger: [],
  skipped: 0,
  tools: { added: [], removed: [], changed: [], ...tools },
  models: { added: [], removed: [], ...models },
});

describe("reloadSummary", () => {
  it("counts what changed", () => {
    expect(reloadSummary(notice({ added: ["a"], changed: ["b"] }))).toBe("+1 tool, 1 changed");
    expect(reloadSummary(notice({ removed: ["a", "b"] }, { added: ["gpt"] }))).toBe("−2 tools, 1 model added");
    expect(reloadSummary(notice({}))).toBe("no tool changed");
    expect(reloadSummary({ ...notice({}), reconnected: [{ server: "fx", reason: "settings changed" }] })).toBe("1 MCP server reconnected");
  });
});

describe("pluginsHint", () => {
  const builtin = { origin: "builtin" } as ToolJson;
  const skipped = (pkg: string, entry: string): Diagnostic => ({ kind: "import-failed", package: pkg, entry, message: "x", hint: "y" });

  it("says a package is installed with all its tools skipped, not that none is installed", () => {
    const data = { tools: { read_file: builtin }, diagnostics: [skipped("my-plugin", "a"), skipped("my-plugin", "b")], disabledPackages: [] };
    expect(pluginsHint(data)).toBe("1 plugin package installed, all of its tools skipped (see above).");
    expect(pluginsHint({ ...data, diagnostics: [skipped("p1", "a"), skipped("p2", "b")], disabledPackages: ["p3"] })).toBe(
      "2 plugin packages installed, all of their tools skipped (see above); 1 plugin package disabled by plugins.disabled.",
    );
  });

  it("is null when no package is there (the install hint shows) or when plugin tools are listed", () => {
    expect(
      pluginsHint({ tools: { read_file: builtin }, diagnostics: [{ ...skipped("mcp:fs", "x"), kind: "source-failed" }], disabledPackages: [] }),
    ).toBeNull();
    expect(pluginsHint({ tools: { hello: { origin: "plugin" } as ToolJson }, diagnostics: [skipped("p", "a")], disabledPackages: [] })).toBeNull();
  });
});
