import { describe, expect, it } from "vitest";
import { shownNotice, type ReloadNotice } from "./reload-diff";

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
