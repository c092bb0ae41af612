// Writes examples/evals/suite.schema.json and examples/collections/collection.schema.json from their
// zod schemas: `npx tsx scripts/eval-schema.ts` (then prettier formats them). lib/evals/suite.test.ts
// and lib/evals/collection.test.ts fail when a committed file is out of date.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { collectionJsonSchema } from "../lib/evals/collection-schema";
import { suiteJsonSchema } from "../lib/evals/suite-schema";

/** The published schemas, beside the examples (`# yaml-language-server: $schema=./suite.schema.json`). */
const SCHEMAS: [string, Record<string, unknown>][] = [
  [path.resolve(import.meta.dirname, "../examples/evals/suite.schema.json"), suiteJsonSchema()],
  [path.resolve(import.meta.dirname, "../examples/collections/collection.schema.json"), collectionJsonSchema()],
];

for (const [file, schema] of SCHEMAS) {
  fs.writeFileSync(file, `${JSON.stringify(schema, null, 2)}\n`);
  execFileSync("npx", ["prettier", "--write", file], { stdio: "inherit" });
  console.log(`wrote ${file}`);
}
