import { z } from "zod";
import { TEXT_PROTOCOLS } from "@/lib/chat/text-protocol/types";
import { sweepChoice } from "@/lib/evals/sweep";
import { handle, readJson } from "@/lib/server/http/route";
import { evalsOverview, startEval } from "@/lib/server/evals/eval-runs";

export const dynamic = "force-dynamic";

const startSchema = z.strictObject({
  suite: z.string().min(1).max(1000),
  models: z.array(z.string().min(1).max(200)).min(1).max(20).optional(),
  modes: z
    .array(z.enum(["native", "text"]))
    .min(1)
    .optional(),
  // "all": native and every text protocol (the sweep), as the CLI's --protocols all. A union's own
  // message is zod's bare "Invalid input": this one names what the field takes.
  protocols: z
    .union([z.literal("all"), z.array(z.enum(TEXT_PROTOCOLS)).min(1)], {
      error: (issue) => `expected "all" or a list of text protocols from ${TEXT_PROTOCOLS.join(", ")} (got ${JSON.stringify(issue.input)})`,
    })
    .optional(),
  trials: z.number().int().min(1).max(1000).optional(),
});

/** GET /api/evals — the suites found (what each asks for, whether trusted) and the latest evals (running ones live). */
export const GET = handle("viewer", async () => Response.json(await evalsOverview()));

/** POST /api/evals — starts a listed suite in the background; 202 with its status, which GET then follows. */
export const POST = handle("member", async (request: Request) => {
  const { suite, ...choice } = await readJson(request, startSchema, { maxBytes: 16_384 });
  return Response.json({ run: await startEval(suite, sweepChoice(choice)) }, { status: 202 });
});
