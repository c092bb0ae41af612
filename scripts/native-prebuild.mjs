// better-sqlite3 compiles from source on every clean install here (its prebuilt binaries live on a
// host this machine cannot reach): about a minute of both cores. prebuild-install, its install
// step, first looks for a "local prebuild" tarball in the folder that
// npm_config_better_sqlite3_local_prebuilds names. This script keeps that folder filled:
//   node scripts/native-prebuild.mjs dir    print the folder (for the variable)
//   node scripts/native-prebuild.mjs save   pack the module this install compiled, once per version and ABI
// A machine without the tarball compiles as before and saves it; nothing is downloaded.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dir = path.join(process.env.NODE22_CACHE_DIR ?? path.join(os.homedir(), ".cache", "toolroom"), "prebuilds");
const pkgDir = path.join(root, "node_modules", "better-sqlite3");
const binary = path.join("build", "Release", "better_sqlite3.node");

/** prebuild-install's file name: {name}-v{version}-{runtime}-v{abi}-{platform}{libc}-{arch}.tar.gz (glibc: no libc part). */
function tarballName() {
  const { version } = JSON.parse(fs.readFileSync(path.join(pkgDir, "package.json"), "utf8"));
  return `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
}

const command = process.argv[2];
if (command === "dir") {
  console.log(dir);
} else if (command === "save") {
  const tarball = path.join(dir, tarballName());
  if (!fs.existsSync(tarball) && fs.existsSync(path.join(pkgDir, binary))) {
    fs.mkdirSync(dir, { recursive: true });
    // Written aside and renamed, so an interrupted save never leaves a broken tarball to unpack.
    const partial = `${tarball}.${process.pid}.partial`;
    execFileSync("tar", ["-czf", partial, "-C", pkgDir, binary]);
    fs.renameSync(partial, tarball);
    console.log(`toolroom: kept the compiled better-sqlite3 for the next clean install (${tarball})`);
  }
} else {
  console.error("usage: node scripts/native-prebuild.mjs dir|save");
  process.exit(2);
}
