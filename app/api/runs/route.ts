import { param } from "@/app/runs/_lib/runs-root";
import { loadRunList } from "@/app/runs/_lib/load";

export const dynamic = "force-dynamic";

/** GET /api/runs?root=&fresh=1 — the runs table; `fresh` skips the discovery cache. */
export function GET(request: Request) {
  const url = new URL(request.url);
  const list = loadRunList(param(url.searchParams.get("root")), { fresh: url.searchParams.get("fresh") === "1" });
  return Response.json(list, { status: list.rootError && list.override ? 400 : 200 });
}
