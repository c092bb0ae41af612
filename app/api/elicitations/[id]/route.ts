import { z } from "zod";
import { answerElicitation } from "@/lib/server/elicitations/pending";
import { handle } from "@/lib/server/http/route";

const bodySchema = z.object({ scope: z.string().min(1).max(120) }).passthrough();

/** Answers one question (`{ scope, action: accept, content }` or `{ scope, action: decline | cancel }`); the server checks it. */
export const POST = handle("member", async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const body = bodySchema.parse(await request.json());
  const result = await answerElicitation((await params).id, body.scope, body);
  return result.ok
    ? Response.json({ ok: true })
    : Response.json({ error: result.error, code: "elicitation_refused", errors: result.errors }, { status: result.status });
});
