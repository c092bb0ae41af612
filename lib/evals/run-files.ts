import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { runFacts, type EvalRunFacts } from "./diff";

/** The parts of an eval run's files (written by results.ts) that comparing two runs needs. */
const casesFile = z.object({
  suite: z.string(),
  trials: z.array(
    z.object({
      case: z.string(),
      cell: z.string(),
      model: z.string(),
      mode: z.string().optional(),
      protocol: z.string().nullable().optional(),
      trial: z.number(),
      verdict: z.string(),
      reasons: z.array(z.string()).optional(),
    }),
  ),
});
const matrixFile = z.object({
  workload: z.string().optional(),
  recipe_source: z.object({ sha256: z.string().nullable().optional() }).optional(),
});

export class EvalRunReadError extends Error {}

function readJson<T>(file: string, schema: z.ZodType<T>, label: string): T {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new EvalRunReadError(`${label}: ${code === "ENOENT" ? `no ${path.basename(file)}; is this an eval run folder?` : (error as Error).message}`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new EvalRunReadError(`${label}: ${path.basename(file)} is not an eval run's (${parsed.error.issues[0]?.message})`);
  return parsed.data;
}

/** One eval run folder (`runsRoot/evals/<suite>/<timestamp>/`) as the diff reads it. */
export function readEvalRunFacts(dir: string, label = dir): EvalRunFacts {
  const cases = readJson(path.join(dir, "cases.json"), casesFile, label);
  const matrix = fs.existsSync(path.join(dir, "matrix.json")) ? readJson(path.join(dir, "matrix.json"), matrixFile, label) : undefined;
  return runFacts({ label, suite: cases.suite, suiteSha: matrix?.recipe_source?.sha256 ?? null }, cases.trials);
}
