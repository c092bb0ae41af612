import { z } from "zod";
import { handle, routeParams } from "@/lib/server/http/route";
import { openPartialEval } from "@/lib/server/evals/eval-runs";

const paramsSchema = z.strictObject({ id: z.string().min(1).max(100) });

/** POST /api/evals/:id/partial — writes what an interrupted eval finished as a run in Runs, marked partial. */
export const POST = handle("member", async (_request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await routeParams(params, paramsSchema);
  return Response.json({ run: await openPartialEval(id) });
});
