import { handle } from "@/lib/server/http/route";
import { collectionsOverview } from "@/lib/server/collections/collection-runs";

export const dynamic = "force-dynamic";

/** GET /api/collections — every collection (source root and examples) with its calls, its latest run and its history. */
export const GET = handle("viewer", async () => Response.json(await collectionsOverview()));
