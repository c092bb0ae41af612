import { getRegistry } from "@/lib/app/registry";
import { handle } from "@/lib/app/route";
import { toolsResponse } from "@/lib/app/tools-view";

export const GET = handle(async () => Response.json(toolsResponse(await getRegistry())));
