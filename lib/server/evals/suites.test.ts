// The /evals listing reads every *.eval.yaml of the source root on the request thread: a stranger's
// repository must not be able to hold it for seconds with one huge file or many big ones (red team
// of #28), and an edited suite is read afresh.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { settingsSchema } from "@/lib/settings/schema";
import { listSuites, MAX_SUITE_BYTES, MAX_LISTING_BYTES } from "./suites";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-suites-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const settings = settingsSchema.parse({ sourceRoot: root });
const list = () => listSuites(settings, () => false).filter((s) => s.key.startsWith("source:"));
/** A valid suite padded with a comment to `bytes`: cheap to write, and would parse. */
const padded = (name: string, bytes: number) => {
  const head = `name: ${name}\ncases: [{ name: c, prompt: hi }]\n# `;
  return `${head}${"x".repeat(Math.max(0, bytes - head.length - 1))}\n`;
};

describe("suites from the source root", () => {
  it("a suite above the size a listing reads is listed with its size and the way to run it, unread", () => {
    fs.writeFileSync(path.join(root, "huge.eval.yaml"), padded("huge", MAX_SUITE_BYTES + 1));
    const [huge] = list();
    expect(huge).toMatchObject({ label: "huge.eval.yaml", name: null, cases: null });
    expect(huge!.error).toMatch(/huge\.eval\.yaml is 1\.0 MB, above the 1 MB a suite listed from the source root may be.*toolroom eval/);
    fs.rmSync(path.join(root, "huge.eval.yaml"));
  });

  it("past the listing's total, the rest are listed unread", () => {
    const each = Math.floor(MAX_SUITE_BYTES * 0.9);
    const count = Math.ceil(MAX_LISTING_BYTES / each) + 1;
    for (let i = 0; i < count; i++) fs.writeFileSync(path.join(root, `s${String(i).padStart(2, "0")}.eval.yaml`), padded(`s${i}`, each));
    const suites = list();
    expect(suites).toHaveLength(count);
    const unread = suites.filter((s) => s.error);
    expect(unread.length).toBeGreaterThan(0);
    expect(unread[0]!.error).toMatch(/not read: the suites listed before it in the source root already hold \d+ MB/);
    expect(suites.filter((s) => s.name !== null).length).toBe(count - unread.length);
    for (let i = 0; i < count; i++) fs.rmSync(path.join(root, `s${String(i).padStart(2, "0")}.eval.yaml`));
  });

  it("an edited suite is read again", () => {
    const file = path.join(root, "edit.eval.yaml");
    fs.writeFileSync(file, "name: first\ncases: [{ name: c, prompt: hi }]\n");
    expect(list()[0]!.name).toBe("first");
    fs.writeFileSync(file, "name: second\ncases: [{ name: c, prompt: hi }, { name: d, prompt: hi }]\n");
    expect(list()[0]).toMatchObject({ name: "second", cases: 2 });
  });
});
