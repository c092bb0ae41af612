// Writes examples/evals/suite.schema.json from the zod suite schema: `npx tsx scripts/eval-schema.ts`
// (then prettier formats it). lib/evals/suite-schema.test.ts fails when the committed file is out of date.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { SUITE_SCHEMA_FILE, suiteJsonSchema } from "../lib/evals/suite-schema";

fs.writeFileSync(SUITE_SCHEMA_FILE, `${JSON.stringify(suiteJsonSchema(), null, 2)}\n`);
execFileSync("npx", ["prettier", "--write", SUITE_SCHEMA_FILE], { stdio: "inherit" });
console.log(`wrote ${SUITE_SCHEMA_FILE}`);
