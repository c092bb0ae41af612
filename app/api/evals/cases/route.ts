import { z } from "zod";
import { handle, readJson } from "@/lib/server/http/route";
import { caseFiles, saveCase } from "@/lib/server/evals/save-case";
import { getSettings } from "@/lib/settings";

export const dynamic = "force-dynamic";

const saveSchema = z.strictObject({
  file: z.string().min(1).max(500),
  text: z.string().min(1).max(100_000),
  dryRun: z.boolean().optional(),
});

/** GET /api/evals/cases — the suite files under the source root's evals/ a case can be saved into. */
export const GET = handle("viewer", async () => Response.json(caseFiles(getSettings())));

/** POST /api/evals/cases — appends a case (YAML or JSON) to a suite under evals/, or starts one; 201, or 400/409 with the reasons. */
export const POST = handle("member", async (request: Request) => {
  const result = await saveCase(getSettings(), await readJson(request, saveSchema, { maxBytes: 120_000 }));
  return Response.json(result, { status: result.saved ? 201 : 200 });
});
