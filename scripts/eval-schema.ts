// Writes examples/evals/suite.schema.json from the zod suite schema: `npx tsx scripts/eval-schema.ts`
// (then prettier formats it). lib/evals/suite-schema.test.ts fails when the committed file is out of date.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { suiteJsonSchema } from "../lib/evals/suite-schema";

/** The published schema, beside the example suites (`# yaml-language-server: $schema=./suite.schema.json`). */
const SUITE_SCHEMA_FILE = path.resolve(import.meta.dirname, "../examples/evals/suite.schema.json");

fs.writeFileSync(SUITE_SCHEMA_FILE, `${JSON.stringify(suiteJsonSchema(), null, 2)}\n`);
execFileSync("npx", ["prettier", "--write", SUITE_SCHEMA_FILE], { stdio: "inherit" });
console.log(`wrote ${SUITE_SCHEMA_FILE}`);
