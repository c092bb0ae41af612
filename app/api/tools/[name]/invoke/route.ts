import { ruleDecider } from "@/lib/server/approvals/rule-book";
import { getRegistry } from "@/lib/server/runtime/registry";
import { handle } from "@/lib/server/http/route";
import { runTryIt } from "@/lib/server/try-it/try-it";
import { tryItApprovals } from "@/lib/server/try-it/try-it-approvals";
import { getSettings } from "@/lib/settings";

/** Try-it: runs one tool through `invoke`, with the server deciding when a human must approve. Cross-origin requests never reach here: proxy.ts refuses them. */
export const POST = handle("member", async (request: Request, { params }: { params: Promise<{ name: string }> }) => {
  const { name } = await params;
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return Response.json({ status: "error", error: "the body is not valid JSON", code: "invalid_json" }, { status: 400 });
  }
  const result = await runTryIt(name, body, {
    registry: await getRegistry(),
    settings: getSettings(),
    approvals: tryItApprovals(),
    rules: ruleDecider(getSettings(), undefined),
  });
  return Response.json(result.body, { status: result.httpStatus });
});
