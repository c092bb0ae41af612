import { handle, routeParams } from "@/lib/server/http/route";
import { getRegistry } from "@/lib/server/runtime/registry";
import { sourceParams } from "@/lib/server/sources/source-schemas";
import { sourceActivity } from "@/lib/server/sources/sources-view";

/** The server's JSON-RPC log (newest first) and its subscriptions' updates; polled by the Sources view. */
export const GET = handle("viewer", async (_request: Request, { params }: { params: Promise<{ name: string }> }) => {
  const { name } = await routeParams(params, sourceParams);
  return Response.json(sourceActivity(await getRegistry(), name), { headers: { "Cache-Control": "no-store" } });
});
