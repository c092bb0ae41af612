import { z } from "zod";
import { handle, routeParams } from "@/lib/server/http/route";
import { resumeEval } from "@/lib/server/evals/eval-runs";

const paramsSchema = z.strictObject({ id: z.string().min(1).max(100) });

/** POST /api/evals/:id/resume — runs only the trials an interrupted or cancelled eval is missing. */
export const POST = handle("member", async (_request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await routeParams(params, paramsSchema);
  return Response.json({ run: await resumeEval(id) });
});
