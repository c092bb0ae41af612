import { getRegistry } from "@/lib/app/registry";
import { toolsResponse } from "@/lib/app/tools-view";

export async function GET() {
  return Response.json(toolsResponse(await getRegistry()));
}
