import Database from "better-sqlite3";
import type { UIMessage } from "ai";

/**
 * Long chats for the bench and the e2e suite: `count` messages alternating question and answer, the
 * answers markdown of a realistic mix (paragraphs, lists, code) and every fifth one with a finished
 * `list_files` call, so rows differ in height and the page has tool cards to draw.
 */
export function longChatMessages(chatId: string, count: number): UIMessage[] {
  const messages: UIMessage[] = [];
  for (let i = 0; i < count; i++) {
    const id = `${chatId}-m${i}`;
    if (i % 2 === 0) {
      messages.push({ id, role: "user", parts: [{ type: "text", text: `Question ${i / 2}: what is in lib/part-${i % 17}, and why?` }] });
      continue;
    }
    const text = [
      `Answer ${i}. The folder holds **${i % 9} modules**; the one that matters is \`part-${i % 17}/index.ts\`, which reads the settings once and keeps them.`,
      `- first, it loads the file\n- then it checks the schema\n- last, it caches the result for ${i % 60} seconds`,
      i % 3 === 0 ? "```ts\nexport function read(path: string) {\n  return cache.get(path) ?? load(path);\n}\n```" : "",
      `That is why a second read costs nothing. See [the docs](/docs) for more on message ${i}.`,
    ]
      .filter(Boolean)
      .join("\n\n");
    const parts: UIMessage["parts"] = [{ type: "text", text }];
    if (i % 5 === 0) {
      parts.unshift({
        type: "tool-list_files",
        toolCallId: `${id}-call`,
        state: "output-available",
        input: { path: `lib/part-${i % 17}` },
        output: `lib/part-${i % 17}/index.ts\nlib/part-${i % 17}/cache.ts\n`,
      });
    }
    messages.push({ id, role: "assistant", parts, metadata: { model: "bench/seeded" } });
  }
  return messages;
}

/** Writes a chat and its messages straight into the app's SQLite file (the app has no bulk import). */
export function seedChat(dbFile: string, chat: { id: string; title: string; modelRef: string; toolMode?: "native" | "text" }, messages: UIMessage[]): void {
  const db = new Database(dbFile);
  try {
    const now = new Date().toISOString();
    db.transaction(() => {
      db.prepare("INSERT INTO Chat (id, title, modelRef, toolMode, supervised, createdAt, updatedAt) VALUES (?, ?, ?, ?, 1, ?, ?)").run(
        chat.id,
        chat.title,
        chat.modelRef,
        chat.toolMode ?? "native",
        now,
        now,
      );
      const insert = db.prepare("INSERT INTO Message (id, chatId, position, role, parts, metadata, createdAt) VALUES (?, ?, ?, ?, ?, ?, ?)");
      messages.forEach((m, position) =>
        insert.run(m.id, chat.id, position, m.role, JSON.stringify(m.parts), m.metadata === undefined ? null : JSON.stringify(m.metadata), now),
      );
    })();
  } finally {
    db.close();
  }
}
