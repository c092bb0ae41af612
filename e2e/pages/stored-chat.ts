import path from "node:path";
import Database from "better-sqlite3";

/**
 * Direct access to the suite's throwaway database, for states the app cannot be driven into from
 * the browser: a chat whose stored messages no longer parse, an answer with auto mode's notice.
 */
export class StoredChat {
  constructor(readonly chatId: string) {}

  private open() {
    return new Database(path.join(process.env.E2E_STATE as string, "e2e.db"));
  }

  /** Overwrites the parts of every stored message of the chat; returns the originals for `restore`. */
  corruptMessages(): { id: string; parts: string }[] {
    const db = this.open();
    try {
      const rows = db.prepare("SELECT id, parts FROM Message WHERE chatId = ?").all(this.chatId) as { id: string; parts: string }[];
      db.prepare("UPDATE Message SET parts = ? WHERE chatId = ?").run("{ this is not JSON", this.chatId);
      return rows;
    } finally {
      db.close();
    }
  }

  /** Merges `patch` into the stored metadata of the chat's last assistant message. */
  patchLastAnswerMetadata(patch: (metadata: Record<string, unknown>) => Record<string, unknown>) {
    const db = this.open();
    try {
      const row = db.prepare("SELECT id, metadata FROM Message WHERE chatId = ? AND role = 'assistant' ORDER BY position DESC LIMIT 1").get(this.chatId) as
        { id: string; metadata: string | null } | undefined;
      if (!row) throw new Error(`chat ${this.chatId} has no answer`);
      const metadata = JSON.parse(row.metadata ?? "{}") as Record<string, unknown>;
      db.prepare("UPDATE Message SET metadata = ? WHERE id = ?").run(JSON.stringify(patch(metadata)), row.id);
    } finally {
      db.close();
    }
  }

  restore(rows: { id: string; parts: string }[]) {
    const db = this.open();
    try {
      const update = db.prepare("UPDATE Message SET parts = ? WHERE id = ?");
      for (const row of rows) update.run(row.parts, row.id);
    } finally {
      db.close();
    }
  }
}
