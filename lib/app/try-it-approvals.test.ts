import { describe, expect, it } from "vitest";
import { canonicalJson } from "@/lib/tools/canonical-json";
import { inputHash } from "./input-hash";
import { TryItApprovals } from "./try-it-approvals";

describe("TryItApprovals", () => {
  it("honours an approval once, for the same tool and input", () => {
    const store = new TryItApprovals(() => 1000);
    const a = store.issue("write_note", { title: "x", body: "y" }, 300);
    expect(a.expiresAt).toBe(301_000);
    expect(store.take(a.approvalId, "write_note", { body: "y", title: "x" })).toMatchObject({ ok: true });
    expect(store.take(a.approvalId, "write_note", { title: "x", body: "y" })).toMatchObject({ ok: false, reason: "used" });
  });

  it("refuses unknown ids, another tool and changed input", () => {
    const store = new TryItApprovals(() => 0);
    const a = store.issue("write_note", { title: "x" }, 300);
    expect(store.take("nope", "write_note", { title: "x" })).toMatchObject({ ok: false, reason: "unknown" });
    expect(store.take(undefined, "write_note", { title: "x" })).toMatchObject({ ok: false, reason: "unknown" });
    expect(store.take(a.approvalId, "count_words", { title: "x" })).toMatchObject({ ok: false, reason: "wrong-tool" });
    expect(store.take(a.approvalId, "write_note", { title: "y" })).toMatchObject({ ok: false, reason: "input-changed" });
    // Failed matches do not spend the approval.
    expect(store.take(a.approvalId, "write_note", { title: "x" })).toMatchObject({ ok: true });
  });

  it("reports expiry and spends the id", () => {
    let now = 0;
    const store = new TryItApprovals(() => now);
    const a = store.issue("t", {}, 10);
    now = 10_001;
    expect(store.take(a.approvalId, "t", {})).toMatchObject({ ok: false, reason: "expired" });
    expect(store.take(a.approvalId, "t", {})).toMatchObject({ ok: false, reason: "used" });
  });

  it("hashes canonical JSON: key order does not matter, values do", () => {
    expect(canonicalJson({ b: 1, a: [1, { d: 2, c: 3 }] })).toBe('{"a":[1,{"c":3,"d":2}],"b":1}');
    expect(inputHash({ a: 1, b: 2 })).toBe(inputHash({ b: 2, a: 1 }));
    expect(inputHash({ a: 1 })).not.toBe(inputHash({ a: "1" }));
  });
});
