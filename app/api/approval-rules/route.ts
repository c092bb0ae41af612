import { handle, readJson } from "@/lib/server/http/route";
import { listRuleViews, saveNewRule } from "@/lib/server/approvals/rule-admin";
import { newRuleSchema } from "./schema";

/** Every approval rule, in precedence order, with how often each matched. */
export const GET = handle("viewer", async () => Response.json({ rules: await listRuleViews() }));

/** Saves a rule from the UI ("Always…", "Never…", Settings → Approvals). */
export const POST = handle("admin", async (request: Request) => {
  const rule = await saveNewRule(await readJson(request, newRuleSchema, { maxBytes: 64 * 1024, what: "rule" }));
  return Response.json({ rule }, { status: 201 });
});
