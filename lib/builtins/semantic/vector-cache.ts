import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";

/**
 * Embedding vectors on disk, keyed by (model, content hash): an edit re-embeds only the chunks whose
 * text changed, and switching models keeps both sets. One SQLite file beside the search index
 * (a cache, not Toolroom's data, so not in Prisma's database); every write is one transaction, so a
 * build that fails half-way leaves whole batches and the next build resumes from them.
 * Vectors are stored unit-length as Float32 blobs, so a dot product is the cosine.
 */
export class VectorCache {
  private readonly db: Database.Database;
  private readonly select: Database.Statement<[string, string], { vec: Buffer }>;
  private readonly insert: Database.Statement<[string, string, number, Buffer]>;

  constructor(readonly file: string) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    this.db = new Database(file);
    this.db.pragma("journal_mode = WAL");
    this.db.exec(
      "CREATE TABLE IF NOT EXISTS vectors (model TEXT NOT NULL, hash TEXT NOT NULL, dim INTEGER NOT NULL, vec BLOB NOT NULL, PRIMARY KEY (model, hash)) WITHOUT ROWID",
    );
    this.select = this.db.prepare("SELECT vec FROM vectors WHERE model = ? AND hash = ?");
    this.insert = this.db.prepare("INSERT OR REPLACE INTO vectors (model, hash, dim, vec) VALUES (?, ?, ?, ?)");
  }

  get(model: string, hash: string): Float32Array | undefined {
    const row = this.select.get(model, hash);
    if (!row) return undefined;
    // A copy: the Buffer's memory may be reused by the driver, and may be unaligned for a Float32Array.
    const out = new Float32Array(row.vec.byteLength / 4);
    new Uint8Array(out.buffer).set(row.vec);
    return out;
  }

  /** Stores a batch in one transaction, normalising each vector. */
  put(model: string, entries: readonly { hash: string; vector: readonly number[] | Float32Array }[]): Float32Array[] {
    const stored = entries.map((e) => normalize(Float32Array.from(e.vector)));
    this.db.transaction(() => {
      entries.forEach((e, i) => {
        const vec = stored[i]!;
        this.insert.run(model, e.hash, vec.length, Buffer.from(vec.buffer, vec.byteOffset, vec.byteLength));
      });
    })();
    return stored;
  }

  /** Rows and bytes on disk, for the bench and `toolroom index`. */
  stats(): { rows: number; bytes: number } {
    const { rows } = this.db.prepare("SELECT count(*) AS rows FROM vectors").get() as { rows: number };
    let bytes = 0;
    for (const suffix of ["", "-wal"]) {
      try {
        bytes += fs.statSync(this.file + suffix).size;
      } catch {
        // No WAL file after a checkpoint.
      }
    }
    return { rows, bytes };
  }

  close(): void {
    this.db.close();
  }
}

export function normalize(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i]! * v[i]!;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i] = v[i]! / norm;
  return v;
}
