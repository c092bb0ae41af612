import { z } from "zod";
import { pendingIn, recordsIn } from "@/lib/server/elicitations/pending";
import { handle } from "@/lib/server/http/route";

const scopeSchema = z.string().min(1).max(120);

/** The questions running tools put to the person behind `scope` (a chat id, or `try-it:<id>`), and how earlier ones were answered. */
export const GET = handle("viewer", (request: Request) => {
  const scope = scopeSchema.parse(new URL(request.url).searchParams.get("scope"));
  return Response.json({ pending: pendingIn(scope), answered: recordsIn(scope) });
});
