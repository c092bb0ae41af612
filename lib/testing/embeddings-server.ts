import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Words that mean the same thing share a dimension, so a question and the code that answers it are
 * close although they share no word ("authentication" ~ verifyPassword). Any other word lands, at a
 * lower weight, on a dimension hashed from its spelling.
 */
const CONCEPTS: Record<string, readonly string[]> = {
  auth: ["authentication", "authenticate", "auth", "login", "logged", "password", "passwords", "credential", "credentials", "verify", "bcrypt", "hash"],
  storage: ["database", "db", "sqlite", "persist", "store", "storage", "save", "table", "row", "rows"],
  network: ["http", "request", "requests", "fetch", "url", "server", "socket", "endpoint"],
  numeric: ["nan", "inf", "overflow", "instability", "unstable", "numerical", "diverge", "diverged", "divergence", "gradient"],
  time: ["timeout", "deadline", "slow", "latency", "elapsed", "duration", "clock"],
};
const CONCEPT_DIMS = Object.keys(CONCEPTS);
export const FAKE_EMBEDDING_DIM = 64;
const conceptOf = new Map<string, number>();
CONCEPT_DIMS.forEach((concept, dim) => {
  for (const word of CONCEPTS[concept]!) conceptOf.set(word, dim);
});

function words(text: string): string[] {
  return (text.match(/[A-Za-z]+/g) ?? []).flatMap((w) => w.split(/(?<=[a-z])(?=[A-Z])/)).map((w) => w.toLowerCase());
}

/** The vector the fake model gives a text: concept counts, plus hashed spellings at a third of the weight. */
export function fakeEmbedding(text: string): number[] {
  const v = new Array<number>(FAKE_EMBEDDING_DIM).fill(0);
  for (const word of words(text)) {
    const concept = conceptOf.get(word);
    if (concept !== undefined) v[concept]! += 1;
    else {
      let h = 2166136261;
      for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619);
      const dim = CONCEPT_DIMS.length + ((h >>> 0) % (FAKE_EMBEDDING_DIM - CONCEPT_DIMS.length));
      v[dim]! += 0.3;
    }
  }
  return v;
}

export interface FakeEmbeddingServer {
  baseURL: string;
  /** Every text embedded, in order. */
  inputs: string[];
  /** Requests answered (including failed ones). */
  requests: number;
  /** While set, every request gets this HTTP status and an error body. */
  failWith: number | null;
  close(): Promise<void>;
}

/** An OpenAI-compatible `POST /v1/embeddings` on 127.0.0.1, in OpenAI's wire format. */
export async function startFakeEmbeddings(): Promise<FakeEmbeddingServer> {
  const state: FakeEmbeddingServer = { baseURL: "", inputs: [], requests: 0, failWith: null, close: async () => {} };
  const server = http.createServer((req, res) => {
    const body: Buffer[] = [];
    req.on("data", (chunk: Buffer) => body.push(chunk));
    req.on("end", () => {
      state.requests++;
      if (req.method !== "POST" || req.url !== "/v1/embeddings") {
        res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
        return;
      }
      if (state.failWith !== null) {
        res
          .writeHead(state.failWith, { "content-type": "application/json" })
          .end(JSON.stringify({ error: { message: "embedding backend unavailable", type: "server_error" } }));
        return;
      }
      const request = JSON.parse(Buffer.concat(body).toString("utf8")) as { model: string; input: string | string[] };
      const inputs = Array.isArray(request.input) ? request.input : [request.input];
      state.inputs.push(...inputs);
      const data = inputs.map((text, index) => ({ object: "embedding", index, embedding: fakeEmbedding(text) }));
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ object: "list", data, model: request.model, usage: { prompt_tokens: inputs.length, total_tokens: inputs.length } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}
