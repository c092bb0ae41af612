import { handle, readJson, routeParams } from "@/lib/server/http/route";
import { getRegistry } from "@/lib/server/runtime/registry";
import { getPrompt } from "@/lib/server/sources/source-actions";
import { promptBody, sourceParams } from "@/lib/server/sources/source-schemas";

/** `prompts/get` with the filled arguments, answered as the text for the composer. */
export const POST = handle("member", async (request: Request, { params }: { params: Promise<{ name: string }> }) => {
  const { name } = await routeParams(params, sourceParams);
  const body = await readJson(request, promptBody, { maxBytes: 1_048_576 });
  return Response.json(await getPrompt(await getRegistry(), name, body.name, body.arguments));
});
