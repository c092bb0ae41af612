import { z } from "zod";
import { param } from "@/app/runs/_lib/runs-root";
import { loadCellPage } from "@/app/runs/_lib/load";

export const dynamic = "force-dynamic";

const pageSchema = z.coerce.number().int().min(0).max(1_000_000);

/**
 * GET /api/runs/cells?root=&path=<run>&page=N — page N of a run's matrix cells (PackedCells JSON).
 * The run page carries page 0 and fetches the rest here, so its HTML stays bounded.
 */
export async function GET(request: Request) {
  const url = new URL(request.url);
  const page = pageSchema.safeParse(url.searchParams.get("page") ?? "0");
  if (!page.success) return Response.json({ error: "?page= must be a whole number from 0", code: "bad_request" }, { status: 400 });
  const loaded = await loadCellPage(param(url.searchParams.get("root")), param(url.searchParams.get("path")), page.data);
  if (!loaded.ok)
    return Response.json(
      { error: loaded.error, code: loaded.status === 403 ? "forbidden" : loaded.status === 404 ? "not_found" : "bad_request" },
      { status: loaded.status },
    );
  return new Response(loaded.data, { headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" } });
}
