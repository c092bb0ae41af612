import { param } from "@/app/runs/_lib/runs-root";
import { loadRunList } from "@/app/runs/_lib/load";

export const dynamic = "force-dynamic";

/** GET /api/runs?root=&fresh=1 — the runs table; `fresh` skips the discovery cache. A refused root is 403, an unreadable one 400. */
export async function GET(request: Request) {
  const url = new URL(request.url);
  const { status, ...list } = await loadRunList(param(url.searchParams.get("root")), { fresh: url.searchParams.get("fresh") === "1" });
  if (status === 403) return Response.json({ ...list, error: list.rootError, code: "root_not_allowed" }, { status });
  return Response.json(list, { status: list.rootError && list.override ? status : 200 });
}
