import { z } from "zod";
import { handle, parseWith } from "@/lib/server/http/route";
import { loadEvalTranscript } from "@/lib/server/runs/load";
import { param } from "@/lib/server/runs/runs-root";

export const dynamic = "force-dynamic";

const nameSchema = z.string().min(1).max(1000);
const trialSchema = z.coerce.number().int().min(1).max(1_000_000);

/** GET /api/runs/eval-transcript?root=&path=<run>&case=<name>&cell=<cell>&trial=<n> — one trial's transcript from a CLI run's folder. */
export const GET = handle("viewer", async (request: Request) => {
  const q = new URL(request.url).searchParams;
  const caseName = parseWith(nameSchema, q.get("case") ?? "", "?case= (a case name)");
  const cell = parseWith(nameSchema, q.get("cell") ?? "", "?cell= (a cell name)");
  const trial = parseWith(trialSchema, q.get("trial") ?? "", "?trial= (a trial number from 1)");
  return Response.json(await loadEvalTranscript(param(q.get("root")), param(q.get("path")), caseName, cell, trial));
});
