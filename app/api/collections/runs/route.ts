import { handle, readJson } from "@/lib/server/http/route";
import { startCollectionRun, startRunSchema } from "@/lib/server/collections/collection-runs";

/** POST /api/collections/runs — `{ key, vars }`: starts a stored run (201); its calls run one step at a time. */
export const POST = handle("member", async (request: Request) =>
  Response.json({ run: await startCollectionRun(await readJson(request, startRunSchema, { maxBytes: 200_000 })) }, { status: 201 }),
);
