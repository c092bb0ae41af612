import { handle, readJson, routeParams } from "@/lib/server/http/route";
import { getRegistry } from "@/lib/server/runtime/registry";
import { complete } from "@/lib/server/sources/source-actions";
import { completeBody, sourceParams } from "@/lib/server/sources/source-schemas";

/** `completion/complete` for a prompt argument or a template variable (none when the server offers none). */
export const POST = handle("member", async (request: Request, { params }: { params: Promise<{ name: string }> }) => {
  const { name } = await routeParams(params, sourceParams);
  const body = await readJson(request, completeBody, { maxBytes: 65_536 });
  return Response.json(await complete(await getRegistry(), name, body.ref, body.argument, body.context));
});
