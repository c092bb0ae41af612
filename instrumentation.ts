// Reads settings and the tool registry once, when the server process starts (Node runtime only).
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs") await import("@/lib/server/runtime/startup").then((m) => m.startup());
}
