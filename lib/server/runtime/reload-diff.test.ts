import { describe, expect, it } from "vitest";
import type { Registry, SourceStatus } from "@/lib/tools/registry-types";
import { reconnectedServers, shownNotice, type ReloadNotice } from "./reload-diff";

const notice = (over: Partial<ReloadNotice> = {}): ReloadNotice => ({
  at: "2026-11-30T14:02:00.000Z",
  ok: true,
  trigger: [],
  skipped: 0,
  tools: { added: [], removed: [], changed: [] },
  models: { added: [], removed: [] },
  ...over,
});

describe("shownNotice", () => {
  const added = notice({ tools: { added: ["say_hello"], removed: [], changed: [] } });

  it("keeps the last notice when a reload changed nothing", () => {
    expect(shownNotice(added, notice({ at: "2026-11-30T14:03:00.000Z" }))).toBe(added);
    expect(shownNotice(null, notice())).toBeNull();
  });

  it("shows a change, a failure, and the recovery after a failure", () => {
    const failed = notice({ ok: false, error: "bad YAML" });
    expect(shownNotice(added, failed)).toBe(failed);
    const recovered = notice({ at: "2026-11-30T14:04:00.000Z" });
    expect(shownNotice(failed, recovered)).toBe(recovered);
    expect(shownNotice(null, added)).toBe(added);
  });
});

describe("reconnectedServers", () => {
  const status = (name: string, reason?: string, state: SourceStatus["state"] = "connected"): SourceStatus => ({
    package: `mcp:${name}`,
    transport: "stdio",
    target: "node server.js",
    prefix: "",
    state,
    toolCount: 1,
    ...(reason ? { reconnected: { at: "2026-11-30T14:02:00.000Z", reason } } : {}),
  });
  const registry = (sources: SourceStatus[]) => ({ tools: [], diagnostics: [], disabledPackages: [], sources, get: () => undefined }) as Registry;

  it("names the servers connected anew, not the kept (the same status), the added, nor a failed one failing again; a reconnect counts as a change", () => {
    const kept = status("kept");
    const retried = "it had failed to connect; trying again";
    const before = registry([kept, status("edited"), status("broken", undefined, "failed"), status("fixed", undefined, "failed")]);
    const after = registry([kept, status("edited", "settings changed"), status("added"), status("broken", retried, "failed"), status("fixed", retried)]);
    expect(reconnectedServers(before, after)).toEqual([
      { server: "edited", reason: "settings changed" },
      { server: "fixed", reason: retried },
    ]);
    const reconnected = notice({ reconnected: reconnectedServers(before, after) });
    expect(shownNotice(notice(), reconnected)).toBe(reconnected);
  });
});
