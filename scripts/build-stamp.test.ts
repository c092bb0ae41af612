import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { servedFrom, staleReason, writeStamp } from "./build-stamp.mjs";

let root: string;
const write = (rel: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
};
const git = (...args: string[]) => execFileSync("git", args, { cwd: root, stdio: "ignore" });
const build = () => {
  write(".next/BUILD_ID", "x");
  writeStamp(root, ".next");
};

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-stamp-"));
  write(".gitignore", ".next/\n");
  write("app/page.tsx", "export default () => 'one';\n");
  write("lib/x.test.ts", "test\n");
  git("init", "-q");
  git("-c", "user.email=t@t", "-c", "user.name=t", "add", ".");
  git("-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "one");
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe("build stamp", () => {
  it("asks for a first build, then holds while nothing changed", () => {
    expect(staleReason(root, ".next")).toBe("there is no build yet");
    build();
    expect(staleReason(root, ".next")).toBeNull();
    expect(servedFrom(root, ".next")).toMatch(/^[0-9a-f]{7}$/);
  });

  it("a pull that changes a page makes the build stale, naming both commits", () => {
    build();
    const before = servedFrom(root, ".next");
    write("app/page.tsx", "export default () => 'two';\n");
    git("-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qam", "two");
    expect(staleReason(root, ".next")).toMatch(new RegExp(`^the sources moved from commit ${before} to [0-9a-f]{7}$`));
  });

  it("an uncommitted edit or a new file counts; an edit undone does not", () => {
    build();
    write("app/page.tsx", "export default () => 'edited';\n");
    expect(staleReason(root, ".next")).toBe("the sources changed since the build");
    write("app/page.tsx", "export default () => 'one';\n");
    expect(staleReason(root, ".next")).toBeNull();
    write("app/new/page.tsx", "export default () => 'new';\n");
    expect(staleReason(root, ".next")).toBe("the sources changed since the build");
  });

  it("tests, e2e specs and docs do not force a rebuild", () => {
    build();
    write("lib/x.test.ts", "changed\n");
    write("e2e/a.spec.ts", "new\n");
    write("README.md", "docs\n");
    expect(staleReason(root, ".next")).toBeNull();
  });

  it("a person's settings, eval suites, runs and notes beside the app do not force a rebuild", () => {
    build();
    write("toolroom.yaml", "sourceRoot: .\n");
    write("smoke.eval.yaml", "cases: []\n");
    write("evals/more.eval.yaml", "cases: []\n");
    write("runs/BIG-1/matrix.json", "{}\n");
    write("notes.txt", "todo\n");
    expect(staleReason(root, ".next")).toBeNull();
    write("lib/new.ts", "export const x = 1;\n");
    expect(staleReason(root, ".next")).toBe("the sources changed since the build");
  });

  it("without git too, only the app's sources count", () => {
    fs.rmSync(path.join(root, ".git"), { recursive: true });
    build();
    write("toolroom.yaml", "sourceRoot: .\n");
    write("evals/more.eval.yaml", "cases: []\n");
    expect(staleReason(root, ".next")).toBeNull();
    write("components/new.tsx", "export const x = 1;\n");
    expect(staleReason(root, ".next")).toBe("the sources changed since the build");
  });

  it("a build without a stamp is rebuilt; a checkout without git falls back to sizes and times", () => {
    write(".next/BUILD_ID", "x");
    expect(staleReason(root, ".next")).toBe("the build does not record which sources it was made from");
    fs.rmSync(path.join(root, ".git"), { recursive: true });
    build();
    expect(staleReason(root, ".next")).toBeNull();
    expect(servedFrom(root, ".next")).toBe("a checkout without git");
    write("app/page.tsx", "export default () => 'changed size';\n");
    expect(staleReason(root, ".next")).toBe("the sources changed since the build");
  });
});
