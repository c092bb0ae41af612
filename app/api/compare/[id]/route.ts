import { z } from "zod";
import { comparisonIdSchema } from "@/lib/server/compare/compare-request";
import { comparisonDetail } from "@/lib/server/compare/compare-service";
import { HttpError } from "@/lib/server/http/http-error";
import { handle, routeParams } from "@/lib/server/http/route";

type Context = { params: Promise<{ id: string }> };

export const GET = handle("viewer", async (_request: Request, { params }: Context) => {
  const { id } = await routeParams(params, z.object({ id: comparisonIdSchema }));
  const detail = await comparisonDetail(id);
  if (!detail) throw new HttpError(404, `Comparison ${id} does not exist.`, "unknown_comparison");
  return Response.json(detail);
});
