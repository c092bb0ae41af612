import fs from "node:fs";
import os from "node:os";
import path from "node:path";

// The hostile-path corpus every file-taking tool must refuse: the built-ins (lib/sandbox/hostile.test.ts)
// and plugin tools' ctx.files (lib/sandbox/tool-files.test.ts) are held to the same list.

/** Written into every out-of-root and .aiignored file: it must never come back from a tool. */
export const MARKER = "TOPSECRET_7f3a9";

export interface HostileTree {
  tmp: string;
  root: string;
  outside: string;
}

export function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

/** A source root with .aiignore files at several depths (negations included), symlinks out, and a secret folder beside it. */
export function makeHostileTree(): HostileTree {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-hostile-"));
  const root = path.join(tmp, "root");
  const outside = path.join(tmp, "outside");
  write(path.join(outside, "secret.txt"), `outside ${MARKER}\n`);
  write(path.join(outside, "dir", "secret2.txt"), `outside dir ${MARKER}\n`);
  write(path.join(outside, "evil.ts"), `export function ${MARKER}_outside() {}\n`);

  write(path.join(root, "ok.txt"), "hello from the root\n");
  write(path.join(root, "src", "a.ts"), "export const visibleThing = 1;\n");
  write(path.join(root, ".aiignore"), ["secrets/", "*.key", "!public.key", "private/**", ""].join("\n"));
  write(path.join(root, "secrets", "token.txt"), `token ${MARKER}\n`);
  write(path.join(root, "secrets", "evil.ts"), `export function ${MARKER}_ignored() { return "${MARKER}"; }\n`);
  // A deeper `!` cannot re-include a file whose folder is excluded (git semantics).
  write(path.join(root, "secrets", ".aiignore"), "!token.txt\n");
  write(path.join(root, "id.key"), `key ${MARKER}\n`);
  write(path.join(root, "public.key"), "public ok\n");
  write(path.join(root, "private", "x", "y.txt"), `private ${MARKER}\n`);
  write(path.join(root, "nested", ".aiignore"), ["hidden.txt", "*.env", "!visible.env", ""].join("\n"));
  write(path.join(root, "nested", "hidden.txt"), `nested ${MARKER}\n`);
  write(path.join(root, "nested", "other.env"), `env ${MARKER}\n`);
  write(path.join(root, "nested", "visible.env"), "visible env\n");
  write(path.join(root, "nested", "deeper", ".aiignore"), ["!hidden.txt", "secret.md", ""].join("\n"));
  write(path.join(root, "nested", "deeper", "hidden.txt"), "deeper wins\n");
  write(path.join(root, "nested", "deeper", "secret.md"), `deeper ${MARKER}\n`);
  write(path.join(root, "a", "b", "c", ".aiignore"), "*.txt\n");
  write(path.join(root, "a", "b", "c", "deep.txt"), `deep ${MARKER}\n`);
  write(path.join(root, "a", "b", "c", "fine.md"), "fine\n");

  fs.symlinkSync("../outside/secret.txt", path.join(root, "link-file"));
  fs.symlinkSync("../outside/dir", path.join(root, "link-dir"));
  fs.symlinkSync(outside, path.join(root, "link-abs"));
  fs.mkdirSync(path.join(root, "src", "deep"), { recursive: true });
  fs.symlinkSync("../../../outside", path.join(root, "src", "deep", "link-up"));
  fs.symlinkSync("../outside/nonexistent", path.join(root, "dangling"));
  fs.symlinkSync("secrets/token.txt", path.join(root, "link-to-ignored"));
  fs.symlinkSync("secrets", path.join(root, "alias-dir"));
  write(path.join(root, ".toolroom", "cache", "search-index.jsonl"), `cached ${MARKER}\n`);

  return { tmp, root, outside };
}

/** Paths that must be refused (escapes, symlinks, encodings, NUL, Windows, .aiignore, our cache). */
export function hostilePaths({ root, outside }: HostileTree): string[] {
  return [
    // traversal
    "..",
    "../",
    "../outside/secret.txt",
    "../../etc/passwd",
    "src/../../outside/secret.txt",
    "./../outside",
    "src/../../../",
    "ok.txt/../../outside/secret.txt",
    "..//..//outside/secret.txt",
    "src/./../../outside/dir/secret2.txt",
    // absolute
    "/etc/passwd",
    path.join(outside, "secret.txt"),
    "/",
    "//etc/passwd",
    path.join(root, "..", "outside", "secret.txt"),
    // symlinks, file and folder form
    "link-file",
    "link-dir",
    "link-dir/secret2.txt",
    "link-abs/secret.txt",
    "link-abs",
    "src/deep/link-up/secret.txt",
    "src/deep/link-up",
    "dangling",
    // URL-encoded
    "%2e%2e/outside/secret.txt",
    "%2e%2e%2foutside%2fsecret.txt",
    "%252e%252e%252foutside%252fsecret.txt",
    "..%2foutside%2fsecret.txt",
    "%2Fetc%2Fpasswd",
    "src%2f..%2f..%2foutside%2fsecret.txt",
    // NUL bytes
    "ok.txt\0../../outside/secret.txt",
    "id.key\0",
    "%00../outside/secret.txt",
    // Windows-style
    "..\\outside\\secret.txt",
    "..\\..\\x",
    "C:\\Windows\\win.ini",
    "C:/outside/secret.txt",
    "\\\\server\\share\\secret.txt",
    "src\\..\\..\\outside\\secret.txt",
    // .aiignore at several depths, negations that must not re-include
    "secrets/token.txt",
    "secrets",
    "secrets/",
    "secrets/evil.ts",
    "id.key",
    "./id.key",
    "src/../id.key",
    "private/x/y.txt",
    "private/x",
    "private/x/",
    "nested/hidden.txt",
    "nested/other.env",
    "nested/deeper/secret.md",
    "a/b/c/deep.txt",
    "link-to-ignored",
    "alias-dir/token.txt",
    "alias-dir",
    "secrets/../secrets/token.txt",
    // our own cache
    ".toolroom/cache/search-index.jsonl",
    ".toolroom/cache",
  ];
}
