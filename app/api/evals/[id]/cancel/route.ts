import { z } from "zod";
import { handle, routeParams } from "@/lib/server/http/route";
import { cancelEval } from "@/lib/server/evals/eval-runs";

const paramsSchema = z.strictObject({ id: z.string().min(1).max(100) });

/** POST /api/evals/:id/cancel — stops starting trials; the running ones end within their timeouts and what finished is kept as a partial run. */
export const POST = handle("member", async (_request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await routeParams(params, paramsSchema);
  return Response.json({ run: await cancelEval(id) });
});
