// Pages answer while many answers stream (#29.1): a fast model's deltas are batched before the
// SDK's stream chain, so 20 streaming chats leave the server time for GET /tools. Checked by order,
// through the server's own state: the page came back while every chat was still stored as running.
import { expect, test } from "@playwright/test";
import { startFakeOpenAI, type FakeOpenAIServer } from "../lib/testing/openai-server";

const STREAMS = 20;
const DELTAS = 3000;

let loopback: FakeOpenAIServer;
test.beforeAll(async () => {
  loopback = await startFakeOpenAI({ port: Number(process.env.E2E_LOOPBACK_PORT) });
});
test.afterAll(() => loopback.close());

interface StoredMessage {
  role: string;
  parts: { type: string; text?: string }[];
  metadata?: { interrupted?: string };
}

test("GET /tools and /api/tools answer while 20 chats stream 300 deltas a second each", async ({ playwright, request }) => {
  test.setTimeout(180_000);
  const words = Array.from({ length: DELTAS }, (_, i) => `w${i} `);
  loopback.reply(...Array.from({ length: STREAMS }, () => ({ deltas: words.map((content) => ({ content })), finish: "stop" as const, perSecond: 300 })));
  const streams = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  try {
    const ids = Array.from({ length: STREAMS }, (_, i) => `load-${Date.now()}-${i}`);
    const answers = ids.map((id) =>
      streams.post("/api/chat", {
        data: { id, message: { id: `${id}-u`, role: "user", parts: [{ type: "text", text: "go" }] }, trigger: "submit-message", model: "loopback" },
        timeout: 170_000,
      }),
    );
    const lastOf = async (id: string): Promise<StoredMessage | undefined> => {
      const response = await request.get(`/api/chats/${id}`);
      if (!response.ok()) return undefined;
      return ((await response.json()) as { messages: StoredMessage[] }).messages.at(-1);
    };
    const running = async (id: string) => (await lastOf(id))?.metadata?.interrupted === "running";
    // Every chat is streaming (its progress is stored, marked running) before the probes.
    await expect.poll(async () => (await Promise.all(ids.map(running))).every(Boolean), { timeout: 120_000 }).toBe(true);

    expect((await request.get("/api/tools")).status()).toBe(200);
    const page = await request.get("/tools");
    expect(page.status()).toBe(200);
    expect(await page.text()).toContain("read_file");
    // Both came back while the answers were still streaming: not one is stored as finished yet.
    expect(await Promise.all(ids.map(running))).toEqual(ids.map(() => true));

    for (const answer of answers) expect((await answer).status()).toBe(200);
    for (const id of ids) {
      const last = await lastOf(id);
      expect(last?.metadata?.interrupted).toBeUndefined();
      expect(last?.parts.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("")).toBe(words.join(""));
    }
  } finally {
    await streams.dispose();
  }
});
