import { z } from "zod";
import { handle, routeParams } from "@/lib/server/http/route";
import { stopCollectionRun } from "@/lib/server/collections/collection-runs";

const paramsSchema = z.strictObject({ id: z.string().min(1).max(100) });

/** POST /api/collections/runs/:id/stop — ends the run where it is; its finished calls stay. */
export const POST = handle("member", async (_request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await routeParams(params, paramsSchema);
  return Response.json({ run: await stopCollectionRun(id) });
});
