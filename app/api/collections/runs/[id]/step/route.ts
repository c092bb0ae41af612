import { z } from "zod";
import { handle, readJson, routeParams } from "@/lib/server/http/route";
import { stepCollectionRun, stepSchema } from "@/lib/server/collections/collection-runs";

const paramsSchema = z.strictObject({ id: z.string().min(1).max(100) });

/** POST /api/collections/runs/:id/step — runs the next call (with the decision on the approval the last step asked for). */
export const POST = handle("member", async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await routeParams(params, paramsSchema);
  return Response.json(await stepCollectionRun(id, await readJson(request, stepSchema, { maxBytes: 200_000 })));
});
