import { handle } from "@/lib/server/http/route";
import { lastReload } from "@/lib/server/runtime/server-reload";

/** The last live reload of plugins and settings: open pages poll it and refresh when it changes. */
export const GET = handle("viewer", async () => Response.json({ reload: lastReload() }));
