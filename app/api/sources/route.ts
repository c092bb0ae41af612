import { handle } from "@/lib/server/http/route";
import { getRegistry } from "@/lib/server/runtime/registry";
import { listSources } from "@/lib/server/sources/sources-view";

/** Every `mcpServers` entry with its state (connected, failed, stopped). */
export const GET = handle("viewer", async () => Response.json({ sources: listSources(await getRegistry()) }));
