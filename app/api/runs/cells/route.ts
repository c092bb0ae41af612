import { z } from "zod";
import { handle, parseWith } from "@/lib/server/http/route";
import { param } from "@/lib/server/runs/runs-root";
import { cellPageResponse } from "@/lib/server/runs/load";

export const dynamic = "force-dynamic";

const pageSchema = z.coerce.number().int().min(0).max(1_000_000);

/**
 * GET /api/runs/cells?root=&path=<run>&page=N — page N of a run's matrix cells (PackedCells JSON).
 * The run page carries page 0 and fetches the rest here, so its HTML stays bounded.
 */
export const GET = handle("viewer", async (request: Request) => {
  const q = new URL(request.url).searchParams;
  const page = parseWith(pageSchema, q.get("page") ?? "0", "?page= (a whole number from 0)");
  return cellPageResponse(param(q.get("root")), param(q.get("path")), page);
});
