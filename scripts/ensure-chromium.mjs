// The e2e suite drives Debian's Chromium (Playwright's own browser download is unavailable here):
// its headless shell (the package chromium-headless-shell), else the full browser. Installs the
// headless shell with apt-get when neither is there and we are root on Debian; otherwise says how.
// The same list as lib/server/runtime/chromium.ts, which the tests and doctor use.
import { execFileSync } from "node:child_process";
import fs from "node:fs";

const candidates = [process.env.CHROMIUM_PATH, "/usr/bin/chromium-headless-shell", "/usr/bin/chromium", "/usr/bin/chromium-browser"].filter(Boolean);
if (candidates.some((p) => fs.existsSync(p))) process.exit(0);

const isRoot = process.getuid?.() === 0;
const hasApt = fs.existsSync("/usr/bin/apt-get");
if (!isRoot || !hasApt) {
  console.error("toolroom: Chromium not found. Install Debian's package (sudo apt-get install -y chromium-headless-shell) or set CHROMIUM_PATH.");
  process.exit(1);
}
console.log("toolroom: installing Chromium from Debian's packages for the e2e tests…");
const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
execFileSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", "chromium-headless-shell"], { stdio: "inherit", env });
