import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post, startServer, useTempDatabase } from "@/lib/testing/approvals-harness";
import { longChatMessages, seedChat } from "@/lib/testing/long-chat";

const dir = useTempDatabase("toolroom-chat-pages-");
const file = path.join(dir, "test.db");

let chatView: typeof import("./chat-view");
let queries: typeof import("@/lib/db/queries");
let client: typeof import("@/lib/db/client");

beforeAll(async () => {
  await startServer({});
  chatView = await import("./chat-view");
  queries = await import("@/lib/db/queries");
  client = await import("@/lib/db/client");
  seedChat(file, { id: "long", title: "Long", modelRef: "offline" }, longChatMessages("long", 500));
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const ids = (messages: { id: string }[]) => messages.map((m) => m.id);
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `long-m${from + i}`);

describe("a long chat, a page at a time", () => {
  it("the chat page gets the latest messages and a cursor for the older ones", async () => {
    const first = await chatView.chatFirstPage("long");
    expect(first?.chat.id).toBe("long");
    expect(ids(first!.messages)).toEqual(range(500 - chatView.FIRST_PAGE_MESSAGES, 500));
    expect(first!.olderBefore).toBe(500 - chatView.FIRST_PAGE_MESSAGES);
  });

  it("paging up from the cursor gives every message once, in order, and ends with a null cursor", async () => {
    const first = (await chatView.chatFirstPage("long"))!;
    let shown = first.messages;
    let cursor = first.olderBefore;
    let pages = 0;
    while (cursor !== null) {
      const page = await chatView.chatMessagesPage("long", cursor);
      expect(page.messages.length).toBeLessThanOrEqual(chatView.OLDER_PAGE_MESSAGES);
      shown = [...page.messages, ...shown];
      cursor = page.olderBefore;
      pages++;
    }
    expect(ids(shown)).toEqual(range(0, 500));
    expect(pages).toBe(Math.ceil((500 - chatView.FIRST_PAGE_MESSAGES) / chatView.OLDER_PAGE_MESSAGES));
    // Exactly one page's worth left: no empty page after it.
    const exact = await queries.loadLatestMessages("long", 100, 100);
    expect([exact.messages.length, exact.olderBefore]).toEqual([100, null]);
  });

  it("a short chat comes whole, with no cursor; an unknown one is null", async () => {
    seedChat(file, { id: "short", title: "Short", modelRef: "offline" }, longChatMessages("short", 3));
    expect((await chatView.chatFirstPage("short"))?.olderBefore).toBeNull();
    expect(ids((await chatView.chatFirstPage("short"))!.messages)).toEqual(["short-m0", "short-m1", "short-m2"]);
    expect(await chatView.chatFirstPage("nope")).toBeNull();
  });
});

describe("the first message of a chat", () => {
  it("is stored with the chat in one commit: a failed write leaves no empty chat behind", async () => {
    const db = new Database(file);
    db.exec(`CREATE TRIGGER no_question BEFORE INSERT ON "Message" WHEN NEW.chatId = 'atomic' BEGIN SELECT RAISE(ABORT, 'refused'); END;`);
    db.close();
    await expect(post({ id: "atomic", message: { id: "atomic-u1", role: "user", parts: [{ type: "text", text: "hello" }] } })).rejects.toThrow();
    expect(await queries.getChat("atomic")).toBeNull();
  });

  it("commits do not wait for the disk: the database is in WAL mode with synchronous NORMAL", async () => {
    const [mode] = await client.db().$queryRawUnsafe<{ journal_mode: string }[]>("PRAGMA journal_mode");
    const [sync] = await client.db().$queryRawUnsafe<{ synchronous: bigint }[]>("PRAGMA synchronous");
    expect(mode?.journal_mode).toBe("wal");
    expect(Number(sync?.synchronous)).toBe(1);
  });
});
