import { z } from "zod";
import { TEXT_PROTOCOLS } from "@/lib/chat/text-protocol/types";
import { handle, readJson } from "@/lib/server/http/route";
import { evalRuns, startEval } from "@/lib/server/evals/eval-runs";
import { listSuites } from "@/lib/server/evals/suites";
import { getSettings } from "@/lib/settings";

export const dynamic = "force-dynamic";

const startSchema = z.strictObject({
  suite: z.string().min(1).max(1000),
  models: z.array(z.string().min(1).max(200)).min(1).max(20).optional(),
  modes: z
    .array(z.enum(["native", "text"]))
    .min(1)
    .optional(),
  protocols: z.array(z.enum(TEXT_PROTOCOLS)).min(1).optional(),
  trials: z.number().int().min(1).max(100).optional(),
});

/** GET /api/evals — the suites found and the evals of this server process (running first, then the latest). */
export const GET = handle(async () => Response.json({ suites: listSuites(getSettings()), runs: evalRuns() }));

/** POST /api/evals — starts a listed suite in the background; 202 with its status, which GET then follows. */
export const POST = handle(async (request: Request) => {
  const { suite, ...choice } = await readJson(request, startSchema, { maxBytes: 16_384 });
  return Response.json({ run: startEval(suite, choice) }, { status: 202 });
});
