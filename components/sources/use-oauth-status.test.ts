import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { queryKeys } from "@/lib/client/query-keys";
import { refreshAfterSignChange } from "./use-oauth-status";

describe("after a sign-in or sign-out", () => {
  it("fetches again the server's sign-in state, its Sources detail and activity, and the tools", async () => {
    const client = new QueryClient();
    const keys = [queryKeys.mcpOAuth("remote"), queryKeys.sources.detail("remote"), queryKeys.sources.activity("remote"), queryKeys.tools.list()];
    for (const key of keys) client.setQueryData(key, { stale: false });
    client.setQueryData(queryKeys.mcpOAuth("other"), { stale: false });
    await refreshAfterSignChange(client, "remote");
    expect(keys.map((key) => client.getQueryState(key)?.isInvalidated)).toEqual([true, true, true, true]);
    expect(client.getQueryState(queryKeys.mcpOAuth("other"))?.isInvalidated).toBe(false);
  });
});
