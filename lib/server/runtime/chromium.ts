import fs from "node:fs";

/**
 * Debian's Chromium, or CHROMIUM_PATH; Playwright's own browser download is not available here.
 * Its headless shell comes first: the same Chromium, built without the desktop browser's UI, as
 * Playwright itself runs headless tests — a fifth less CPU for the e2e suite than the full browser.
 * (scripts/ensure-chromium.mjs keeps the same list: it runs before anything can load TypeScript.)
 */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string | null {
  const candidates = [env.CHROMIUM_PATH, "/usr/bin/chromium-headless-shell", "/usr/bin/chromium", "/usr/bin/chromium-browser"].filter((p): p is string =>
    Boolean(p),
  );
  return candidates.find((p) => fs.existsSync(p)) ?? null;
}
