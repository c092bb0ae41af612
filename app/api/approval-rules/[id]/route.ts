import { handle, readJson, routeParams } from "@/lib/server/http/route";
import { changeRule, removeRule } from "@/lib/server/approvals/rule-admin";
import { ruleChangeSchema, ruleParamsSchema } from "../schema";

type Params = { params: Promise<{ id: string }> };

/** Edits, disables or re-enables a UI rule; settings rules are edited in their file. */
export const PATCH = handle("admin", async (request: Request, { params }: Params) => {
  const { id } = await routeParams(params, ruleParamsSchema);
  const rule = await changeRule(id, await readJson(request, ruleChangeSchema, { maxBytes: 64 * 1024, what: "rule" }));
  return Response.json({ rule });
});

export const DELETE = handle("admin", async (_request: Request, { params }: Params) => {
  const { id } = await routeParams(params, ruleParamsSchema);
  await removeRule(id);
  return new Response(null, { status: 204 });
});
