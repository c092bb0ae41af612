import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// Not a React hook, whatever its name says (the lint rule reads names in app/).
import { startServer, useTempDatabase as tempDatabase } from "@/lib/testing/approvals-harness";
import { longChatMessages, seedChat } from "@/lib/testing/long-chat";

const dir = tempDatabase("toolroom-older-messages-");
let GET: typeof import("./route").GET;

beforeAll(async () => {
  await startServer({});
  seedChat(path.join(dir, "test.db"), { id: "long", title: "Long", modelRef: "offline" }, longChatMessages("long", 150));
  ({ GET } = await import("./route"));
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const get = (id: string, query: string) => GET(new Request(`http://localhost/api/chats/${id}/messages${query}`), { params: Promise.resolve({ id }) });

describe("GET /api/chats/[id]/messages", () => {
  it("answers the page before the cursor, with the next cursor", async () => {
    const response = await get("long", "?before=110");
    expect(response.status).toBe(200);
    const body = (await response.json()) as { messages: { id: string }[]; olderBefore: number | null };
    expect(body.messages.map((m) => m.id)).toEqual(Array.from({ length: 50 }, (_, i) => `long-m${60 + i}`));
    expect(body.olderBefore).toBe(60);
  });

  it("refuses a missing or bad cursor and an unknown chat, in the API's words", async () => {
    for (const query of ["", "?before=-1", "?before=abc", "?before=3&x=1"]) {
      const response = await get("long", query);
      expect([response.status, ((await response.json()) as { code: string }).code]).toEqual([400, "invalid_request"]);
    }
    const missing = await get("nope", "?before=3");
    expect([missing.status, ((await missing.json()) as { code: string }).code]).toEqual([404, "unknown_chat"]);
  });
});
