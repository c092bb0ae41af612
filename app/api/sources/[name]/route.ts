import { handle, routeParams } from "@/lib/server/http/route";
import { getRegistry } from "@/lib/server/runtime/registry";
import { sourceParams } from "@/lib/server/sources/source-schemas";
import { sourceDetail } from "@/lib/server/sources/sources-view";

/** One server: capabilities, tools, resources, templates and prompts (each section bounded in time). */
export const GET = handle("viewer", async (_request: Request, { params }: { params: Promise<{ name: string }> }) => {
  const { name } = await routeParams(params, sourceParams);
  return Response.json(await sourceDetail(await getRegistry(), name));
});
