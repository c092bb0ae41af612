/**
 * Runs before first paint so the page never flashes the wrong theme: an explicit choice in
 * localStorage wins, otherwise the system preference.
 */
export const themeScript = `(() => {
  try {
    const stored = localStorage.getItem("toolroom-theme");
    const dark = stored ? stored === "dark" : matchMedia("(prefers-color-scheme: dark)").matches;
    document.documentElement.classList.toggle("dark", dark);
  } catch {}
})();`;
