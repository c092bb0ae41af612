import { z } from "zod";
import { handle, parseWith } from "@/lib/server/http/route";
import { loadEvalCase } from "@/lib/server/runs/load";
import { param } from "@/lib/server/runs/runs-root";

export const dynamic = "force-dynamic";

const nameSchema = z.string().min(1).max(1000);

/** GET /api/runs/eval-case?root=&path=<run>&case=<name>&cell=<cell> — one case's trials in one cell, expected against actual calls. */
export const GET = handle("viewer", async (request: Request) => {
  const q = new URL(request.url).searchParams;
  const caseName = parseWith(nameSchema, q.get("case") ?? "", "?case= (a case name)");
  const cell = parseWith(nameSchema, q.get("cell") ?? "", "?cell= (a cell name)");
  return Response.json(await loadEvalCase(param(q.get("root")), param(q.get("path")), caseName, cell));
});
