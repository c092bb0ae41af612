import { handle } from "@/lib/server/http/route";
import { param } from "@/lib/server/runs/runs-root";
import { runListResponse } from "@/lib/server/runs/load";

export const dynamic = "force-dynamic";

/** GET /api/runs?root=&fresh=1 — the runs table; `fresh` skips the discovery cache. A refused root is 403, an unreadable one 400. */
export const GET = handle("viewer", async (request: Request) => {
  const q = new URL(request.url).searchParams;
  return runListResponse(param(q.get("root")), q.get("fresh") === "1");
});
