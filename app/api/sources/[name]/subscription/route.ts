import { handle, readJson, routeParams } from "@/lib/server/http/route";
import { getRegistry } from "@/lib/server/runtime/registry";
import { setSubscription } from "@/lib/server/sources/source-actions";
import { sourceParams, subscriptionBody } from "@/lib/server/sources/source-schemas";

/** `resources/subscribe` or `resources/unsubscribe`; updates then show in the activity. */
export const POST = handle("member", async (request: Request, { params }: { params: Promise<{ name: string }> }) => {
  const { name } = await routeParams(params, sourceParams);
  const { uri, subscribed } = await readJson(request, subscriptionBody, { maxBytes: 16_384 });
  await setSubscription(await getRegistry(), name, uri, subscribed);
  return Response.json({ ok: true });
});
