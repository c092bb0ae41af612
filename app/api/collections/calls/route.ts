import { z } from "zod";
import { handle, readJson } from "@/lib/server/http/route";
import { collectionFiles, saveCall } from "@/lib/server/collections/save-call";
import { getSettings } from "@/lib/settings";

export const dynamic = "force-dynamic";

const saveSchema = z.strictObject({
  file: z.string().min(1).max(500),
  text: z.string().min(1).max(100_000),
  dryRun: z.boolean().optional(),
});

/** GET /api/collections/calls — the collections in the source root a call can be saved into. */
export const GET = handle("viewer", async () => Response.json({ files: collectionFiles(getSettings()) }));

/** POST /api/collections/calls — appends a call (YAML or JSON) to a collection in the source root, or starts one; 201, or 400/409 with the reasons. */
export const POST = handle("member", async (request: Request) => {
  const result = await saveCall(getSettings(), await readJson(request, saveSchema, { maxBytes: 120_000 }));
  return Response.json(result, { status: result.saved ? 201 : 200 });
});
