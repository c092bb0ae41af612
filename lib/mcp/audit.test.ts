import { describe, expect, it } from "vitest";
import { logMcpAudit } from "./audit";

describe("toolroom mcp's audit line", () => {
  it("says when the client cancelled the call, as the HTTP audit's state does", async () => {
    const lines: string[] = [];
    const audit = logMcpAudit((line) => void lines.push(line));
    const call = {
      tool: { name: "slow", sourcePackage: "fixture" },
      input: {},
      text: "Error: slow failed: the call was cancelled",
      isError: true,
      madeChanges: false,
      durationMs: null,
      client: "test 1",
      sessionKey: "s",
      startedAt: new Date("2026-12-02T10:00:00Z"),
    } as unknown as Parameters<typeof audit.record>[0];
    await audit.record({ ...call, cancelled: true });
    await audit.record(call);
    expect(lines.map((l) => (JSON.parse(l) as { cancelled: boolean }).cancelled)).toEqual([true, false]);
  });
});
