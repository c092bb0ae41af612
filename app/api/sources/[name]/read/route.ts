import { handle, readJson, routeParams } from "@/lib/server/http/route";
import { getRegistry } from "@/lib/server/runtime/registry";
import { readResource } from "@/lib/server/sources/source-actions";
import { readBody, sourceParams } from "@/lib/server/sources/source-schemas";

/** `resources/read` through the registry's connection: text bounded, binary as base64 up to a limit. */
export const POST = handle("member", async (request: Request, { params }: { params: Promise<{ name: string }> }) => {
  const { name } = await routeParams(params, sourceParams);
  const { uri } = await readJson(request, readBody, { maxBytes: 16_384 });
  return Response.json(await readResource(await getRegistry(), name, uri));
});
