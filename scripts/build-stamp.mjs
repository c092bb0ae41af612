// Which sources a build was made from, so `npm start` never serves a stale build after a `git pull`.
// The fingerprint covers every file the app is built from (not tests, e2e, benches, docs or a
// person's settings and suites): in a git
// checkout the index's blob ids plus the content of files changed or added since; elsewhere each
// file's size and mtime.
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

// Only what `next build` reads counts: a person's ./toolroom.yaml, a *.eval.yaml, runs or notes
// beside the app are not sources, and must not cost a rebuild at the next `npm start`.
const BUILT =
  /^(app|components|lib|packages|prisma|public)\/|^(instrumentation\.ts|proxy\.ts|next\.config\.ts|postcss\.config\.mjs|tsconfig\.json|package(-lock)?\.json)$/;
const NOT_BUILT = /(^|\/)README\.md$|\.test\.tsx?$|\.harness\.ts$|\.generator\.ts$/;
const isBuilt = (file) => BUILT.test(file) && !NOT_BUILT.test(file);
const STAMP = "toolroom-build.json";

function git(root, args) {
  return execFileSync("git", args, { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], maxBuffer: 64 << 20 });
}

function walk(root, dir, out) {
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.name.startsWith(".") || entry.name === "node_modules" || entry.name === "generated" || entry.name === "data") continue;
    if (entry.isDirectory()) {
      if (dir || BUILT.test(`${rel}/`)) walk(root, rel, out);
    } else if (entry.isFile() && isBuilt(rel)) out.push(rel);
  }
}

/** `{ commit, fingerprint }` of the sources under `root` as they are on disk now. */
export function sourceFingerprint(root) {
  const hash = crypto.createHash("sha256");
  let commit = null;
  try {
    commit = git(root, ["rev-parse", "HEAD"]).trim();
    const index = git(root, ["ls-files", "-s"])
      .split("\n")
      .filter((line) => line && isBuilt(line.split("\t")[1]));
    hash.update(index.join("\n"));
    const changed = git(root, ["ls-files", "-m", "-o", "--exclude-standard"])
      .split("\n")
      .filter((f) => f && isBuilt(f))
      .sort();
    for (const file of changed) {
      hash.update(`\0${file}\0`);
      try {
        hash.update(fs.readFileSync(path.join(root, file)));
      } catch {
        hash.update("(deleted)");
      }
    }
  } catch {
    const files = [];
    walk(root, "", files);
    for (const file of files.sort()) {
      const st = fs.statSync(path.join(root, file));
      hash.update(`${file}\0${st.size}\0${st.mtimeMs}\n`);
    }
  }
  return { commit, fingerprint: hash.digest("hex") };
}

/** Why the build in `distDir` must be made again, or null when it matches the sources. */
export function staleReason(root, distDir) {
  if (!fs.existsSync(path.join(root, distDir, "BUILD_ID"))) return "there is no build yet";
  let stamp;
  try {
    stamp = JSON.parse(fs.readFileSync(path.join(root, distDir, STAMP), "utf8"));
  } catch {
    return "the build does not record which sources it was made from";
  }
  const now = sourceFingerprint(root);
  if (stamp.fingerprint === now.fingerprint) return null;
  if (stamp.commit && now.commit && stamp.commit !== now.commit)
    return `the sources moved from commit ${stamp.commit.slice(0, 7)} to ${now.commit.slice(0, 7)}`;
  return "the sources changed since the build";
}

/** Records the sources a fresh build in `distDir` was made from (call right after `next build`). */
export function writeStamp(root, distDir, fingerprint = sourceFingerprint(root)) {
  fs.writeFileSync(path.join(root, distDir, STAMP), `${JSON.stringify({ ...fingerprint, builtAt: new Date().toISOString() }, null, 2)}\n`);
}

/** The commit (and whether local changes are in) that the build in `distDir` serves. */
export function servedFrom(root, distDir) {
  try {
    const stamp = JSON.parse(fs.readFileSync(path.join(root, distDir, STAMP), "utf8"));
    return stamp.commit ? stamp.commit.slice(0, 7) : "a checkout without git";
  } catch {
    return "an unrecorded build";
  }
}
