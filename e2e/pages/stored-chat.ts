import path from "node:path";
import Database from "better-sqlite3";

/**
 * Direct access to the suite's throwaway database, for states the app cannot be driven into from
 * the browser: a chat whose stored messages no longer parse.
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
