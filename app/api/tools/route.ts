import { getRegistry } from "@/lib/server/runtime/registry";
import { handle } from "@/lib/server/http/route";
import { toolsResponse } from "@/lib/server/tools-page/tools-view";

export const GET = handle(async () => Response.json(toolsResponse(await getRegistry())));
