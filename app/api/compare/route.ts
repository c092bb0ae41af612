import { compareRequestSchema } from "@/lib/server/compare/compare-request";
import { comparisonList, startComparison } from "@/lib/server/compare/compare-service";
import { handle, readJson } from "@/lib/server/http/route";

export const GET = handle("viewer", async () => Response.json({ comparisons: await comparisonList() }));

export const POST = handle("member", async (request: Request) => {
  const body = await readJson(request, compareRequestSchema, { maxBytes: 4 * 1024 * 1024, what: "comparison" });
  return Response.json({ comparison: await startComparison(body) }, { status: 201 });
});
