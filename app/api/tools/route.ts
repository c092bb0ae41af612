import { getRegistry } from "@/lib/server/runtime/registry";
import { lastReload, reloadInProgress } from "@/lib/server/runtime/server-reload";
import { handle } from "@/lib/server/http/route";
import { toolsResponse } from "@/lib/server/tools-page/tools-view";

export const GET = handle("viewer", async () => Response.json(await toolsResponse(await getRegistry(), lastReload(), reloadInProgress())));
