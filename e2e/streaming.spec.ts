// The chat's events reach the client as they are written: Next gzips responses for clients that ask
// (browsers do), and a gzipped event waits for zlib before it reaches the socket. The chat's event
// stream says `no-transform`; pages stay compressed.
import { expect, test } from "@playwright/test";

const gzip = { "accept-encoding": "gzip, deflate, br" };

test("the chat's event stream is sent uncompressed to a client that accepts gzip; pages are still compressed", async ({ request }) => {
  const chatId = `streaming-${Date.now()}`;
  const answer = await request.post("/api/chat", {
    headers: gzip,
    data: { id: chatId, message: { id: `${chatId}-u`, role: "user", parts: [{ type: "text", text: "hello there" }] }, trigger: "submit-message" },
  });
  expect(answer.status()).toBe(200);
  expect(answer.headers()["content-type"]).toMatch(/^text\/event-stream/);
  expect(answer.headers()["content-encoding"]).toBeUndefined();
  expect(answer.headers()["cache-control"]).toContain("no-transform");
  expect(await answer.text()).toContain('"type":"text-delta"');

  const page = await request.get("/tools", { headers: gzip });
  expect(page.status()).toBe(200);
  expect(page.headers()["content-encoding"]).toBe("gzip");
});
