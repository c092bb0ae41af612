/** Where the person's explicit theme choice is kept (next-themes' storage key). */
export const THEME_STORAGE_KEY = "toolroom-theme";

/**
 * The theme to show outside the ThemeProvider (the global error page replaces the whole document):
 * the person's explicit choice, otherwise the system preference.
 */
export function prefersDark(): boolean {
  try {
    const stored = localStorage.getItem(THEME_STORAGE_KEY);
    return stored === "dark" || stored === "light" ? stored === "dark" : matchMedia("(prefers-color-scheme: dark)").matches;
  } catch {
    return false;
  }
}
