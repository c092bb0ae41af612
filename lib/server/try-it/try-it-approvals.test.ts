import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { canonicalJson } from "@/lib/tools/canonical-json";
import { useTempDatabase } from "@/lib/testing/approvals-harness";
import { inputHash } from "@/lib/server/approvals/input-hash";
import type { TryItApprovals as Store } from "./try-it-approvals";

const dir = useTempDatabase("toolroom-tryit-approvals-");
let TryItApprovals: typeof Store;

beforeAll(async () => {
  execFileSync(process.execPath, ["scripts/migrate.mjs", "deploy"], { env: process.env, stdio: "pipe" });
  ({ TryItApprovals } = await import("./try-it-approvals"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A server restart: the store and the database connection start from nothing but the file. */
async function restart(): Promise<void> {
  const cache = globalThis as unknown as { __toolroomPrisma?: { $disconnect(): Promise<void> } };
  await cache.__toolroomPrisma?.$disconnect();
  delete cache.__toolroomPrisma;
}

describe("TryItApprovals", () => {
  it("honours an approval once, for the same tool and input", async () => {
    const store = new TryItApprovals(() => 1000);
    const a = await store.issue("write_note", { title: "x", body: "y" }, 300);
    expect(a.expiresAt).toBe(301_000);
    expect(await store.take(a.approvalId, "write_note", { body: "y", title: "x" })).toMatchObject({ ok: true });
    expect(await store.take(a.approvalId, "write_note", { title: "x", body: "y" })).toMatchObject({ ok: false, reason: "used" });
  });

  it("refuses unknown ids, another tool and changed input", async () => {
    const store = new TryItApprovals(() => 0);
    const a = await store.issue("write_note", { title: "x" }, 300);
    expect(await store.take("nope", "write_note", { title: "x" })).toMatchObject({ ok: false, reason: "unknown" });
    expect(await store.take(undefined, "write_note", { title: "x" })).toMatchObject({ ok: false, reason: "unknown" });
    expect(await store.take(a.approvalId, "count_words", { title: "x" })).toMatchObject({ ok: false, reason: "wrong-tool" });
    expect(await store.take(a.approvalId, "write_note", { title: "y" })).toMatchObject({ ok: false, reason: "input-changed" });
    // Failed matches do not spend the approval.
    expect(await store.take(a.approvalId, "write_note", { title: "x" })).toMatchObject({ ok: true });
  });

  it("reports expiry and spends the id", async () => {
    let now = 0;
    const store = new TryItApprovals(() => now);
    const a = await store.issue("t", {}, 10);
    now = 10_001;
    expect(await store.take(a.approvalId, "t", {})).toMatchObject({ ok: false, reason: "expired" });
    expect(await store.take(a.approvalId, "t", {})).toMatchObject({ ok: false, reason: "used" });
  });

  it("keeps a pending approval across a server restart, still once", async () => {
    const a = await new TryItApprovals().issue("write_note", { title: "kept" }, 300);
    await restart();
    const after = new TryItApprovals();
    expect(await after.take(a.approvalId, "write_note", { title: "kept" })).toMatchObject({ ok: true, approval: { approvalId: a.approvalId } });
    await restart();
    expect(await new TryItApprovals().take(a.approvalId, "write_note", { title: "kept" })).toMatchObject({ ok: false, reason: "used" });
  });

  it("lets two answers to one approval race: exactly one wins", async () => {
    const store = new TryItApprovals();
    const a = await store.issue("write_note", { title: "race" }, 300);
    const results = await Promise.all([1, 2, 3].map(() => new TryItApprovals().take(a.approvalId, "write_note", { title: "race" })));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
  });

  it("forgets approvals a minute past their expiry when it issues new ones", async () => {
    let now = 0;
    const store = new TryItApprovals(() => now);
    const old = await store.issue("t", {}, 10);
    now = 10_000 + 60_001;
    await store.issue("t", {}, 10);
    expect(await store.take(old.approvalId, "t", {})).toMatchObject({ ok: false, reason: "unknown" });
  });

  it("on a server with sign-in, answers only the person who started the call; someone else's reads as unknown and spends nothing", async () => {
    const { asPerson } = await import("@/lib/server/auth/person");
    const mia = { id: "u-mia", email: "mia@example.com", role: "member" as const };
    const otto = { id: "u-otto", email: "otto@example.com", role: "admin" as const };
    const store = new TryItApprovals();
    const a = await asPerson(mia, () => store.issue("write_note", { title: "mine" }, 300));
    expect(await asPerson(otto, () => store.take(a.approvalId, "write_note", { title: "mine" }))).toMatchObject({ ok: false, reason: "unknown" });
    expect(await asPerson(mia, () => store.take(a.approvalId, "write_note", { title: "mine" }))).toMatchObject({ ok: true });
    // Started without sign-in: anyone's (the loopback default has no people at all).
    const open = await store.issue("write_note", { title: "open" }, 300);
    expect(await asPerson(otto, () => store.take(open.approvalId, "write_note", { title: "open" }))).toMatchObject({ ok: true });
  });

  it("hashes canonical JSON: key order does not matter, values do", () => {
    expect(canonicalJson({ b: 1, a: [1, { d: 2, c: 3 }] })).toBe('{"a":[1,{"c":3,"d":2}],"b":1}');
    expect(inputHash({ a: 1, b: 2 })).toBe(inputHash({ b: 2, a: 1 }));
    expect(inputHash({ a: 1 })).not.toBe(inputHash({ a: "1" }));
  });
});
