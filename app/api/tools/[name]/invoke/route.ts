import { getRegistry } from "@/lib/app/registry";
import { crossOriginRefusal } from "@/lib/app/same-origin";
import { runTryIt } from "@/lib/app/try-it";
import { tryItApprovals } from "@/lib/app/try-it-approvals";
import { getSettings } from "@/lib/settings";

/** Try-it: runs one tool through `invoke`, with the server deciding when a human must approve. */
export async function POST(request: Request, { params }: { params: Promise<{ name: string }> }) {
  const refused = crossOriginRefusal(request);
  if (refused) return Response.json({ status: "error", error: refused }, { status: 403 });
  const { name } = await params;
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return Response.json({ status: "error", error: "the body is not valid JSON" }, { status: 400 });
  }
  const result = await runTryIt(name, body, { registry: await getRegistry(), settings: getSettings(), approvals: tryItApprovals() });
  return Response.json(result.body, { status: result.httpStatus });
}
