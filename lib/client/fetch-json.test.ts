import { afterEach, describe, expect, it, vi } from "vitest";
import { CLIENT_ERROR_CODES, FetchError, fetchJson } from "./fetch-json";

function answer(response: Response | Error) {
  const calls: { url: string; init: RequestInit }[] = [];
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    if (response instanceof Error) throw response;
    return response;
  });
  return calls;
}

async function failure(promise: Promise<unknown>): Promise<FetchError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FetchError);
  return error as FetchError;
}

afterEach(() => vi.unstubAllGlobals());

describe("fetchJson", () => {
  it("returns the parsed body and sends `json` as a JSON body", async () => {
    const calls = answer(Response.json({ chats: [] }));
    await expect(fetchJson("/api/chats", { method: "PATCH", json: { title: "x" } })).resolves.toEqual({ chats: [] });
    expect(calls[0]!.init.body).toBe('{"title":"x"}');
    expect(calls[0]!.init.headers).toEqual({ "content-type": "application/json" });
  });

  it("returns undefined for an empty success such as a 204", async () => {
    answer(new Response(null, { status: 204 }));
    await expect(fetchJson("/api/chats/a", { method: "DELETE" })).resolves.toBeUndefined();
  });

  it("carries the server's error, code and status", async () => {
    answer(Response.json({ error: "Chat a does not exist.", code: "unknown_chat" }, { status: 404 }));
    const error = await failure(fetchJson("/api/chats/a"));
    expect(error.message).toBe("Chat a does not exist.");
    expect(error.code).toBe("unknown_chat");
    expect(error.status).toBe(404);
  });

  it("names the request and the status for a plain-text refusal", async () => {
    answer(
      new Response("Service unavailable: the database is migrating\n", {
        status: 503,
        statusText: "Service Unavailable",
        headers: { "content-type": "text/plain" },
      }),
    );
    const error = await failure(fetchJson("/api/tools"));
    expect(error.message).toBe("GET /api/tools failed (503 Service Unavailable): Service unavailable: the database is migrating");
    expect(error.code).toBe(CLIENT_ERROR_CODES.http);
    expect(error.status).toBe(503);
  });

  it("says so when a failure has no body at all", async () => {
    answer(new Response(null, { status: 500 }));
    const error = await failure(fetchJson("/api/chats", { method: "POST" }));
    expect(error.message).toBe("POST /api/chats failed (500) with no explanation from the server.");
    expect(error.status).toBe(500);
  });

  it("does not paste an HTML error page into the message", async () => {
    answer(new Response("<!DOCTYPE html><html>…</html>", { status: 502 }));
    expect((await failure(fetchJson("/api/runs"))).message).toBe("GET /api/runs failed (502) with no explanation from the server.");
  });

  it("keeps a failure's JSON body for routes that say more than the error", async () => {
    answer(Response.json({ status: "invalid", message: "text: required", issues: [] }, { status: 422 }));
    const error = await failure(fetchJson("/api/tools/x/invoke", { method: "POST", json: {} }));
    expect(error.body).toEqual({ status: "invalid", message: "text: required", issues: [] });
    expect(error.status).toBe(422);
  });

  it("reports a success whose body is not JSON", async () => {
    answer(new Response("ok", { status: 200 }));
    const error = await failure(fetchJson("/api/tools"));
    expect(error.code).toBe(CLIENT_ERROR_CODES.invalidResponse);
    expect(error.message).toContain("not JSON");
  });

  it("reports an unreachable server with status 0", async () => {
    answer(new TypeError("Failed to fetch"));
    const error = await failure(fetchJson("/api/chats"));
    expect(error.status).toBe(0);
    expect(error.code).toBe(CLIENT_ERROR_CODES.network);
    expect(error.message).toContain("could not be reached (Failed to fetch)");
  });
});
