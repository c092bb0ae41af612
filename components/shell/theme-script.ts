/** Where the person's explicit theme choice is kept. */
export const THEME_STORAGE_KEY = "toolroom-theme";

/** The theme to show: the person's explicit choice, otherwise the system preference. */
export function prefersDark(): boolean {
  try {
    const stored = localStorage.getItem(THEME_STORAGE_KEY);
    return stored ? stored === "dark" : matchMedia("(prefers-color-scheme: dark)").matches;
  } catch {
    return false;
  }
}

/**
 * Runs before first paint so the page never flashes the wrong theme: an explicit choice in
 * localStorage wins, otherwise the system preference.
 */
export const themeScript = `(() => {
  try {
    const stored = localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)});
    const dark = stored ? stored === "dark" : matchMedia("(prefers-color-scheme: dark)").matches;
    document.documentElement.classList.toggle("dark", dark);
  } catch {}
})();`;
