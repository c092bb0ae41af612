import fs from "node:fs";
import path from "node:path";

/** One cell with every field AORTA writes; `samples` step times make up most of its size. */
function cell(i: number, samples: number) {
  const failed = i % 9 === 0 ? 3 : 0;
  const mean = 40 + (i % 17) * 0.7;
  return {
    name: `m${i % 10}_e${Math.floor(i / 10) % 50}_${i}`,
    mitigations: [`m${i % 10}`],
    environment: `env${i % 4}`,
    extra_env: {},
    resolved_env_vars: { HIP_VISIBLE_DEVICES: "0" },
    trials: 8,
    passed_count: 8 - failed,
    failed_count: failed,
    error_count: 0,
    failure_rate: failed / 8,
    error_rate: 0,
    unreliable: i % 23 === 0,
    mean_step_time_ms: mean,
    std_step_time_ms: 1.5,
    min_step_time_ms: mean - 2,
    max_step_time_ms: mean + 3,
    p50_step_time_ms: mean,
    p90_step_time_ms: mean + 1,
    p99_step_time_ms: mean + 2.5,
    mean_wall_clock_sec: 12.5,
    step_times_ms: Array.from({ length: samples }, (_, k) => Math.round((mean + ((k * 7) % 5) - 2 + k / 1000) * 1000) / 1000),
    step_time_source: "per_step",
    step_time_ratio: i === 0 ? 1 : mean / 40,
    exit_status_counts: failed ? { ok: 8 - failed, workload_failed: failed } : { ok: 8 },
    outcome_counts: { completed: 8 },
    failure_hints: failed ? [["NaN in grad", failed]] : [],
    trial_paths: Array.from({ length: 4 }, (_, k) => `cells/c${i}/trial_${k}/result.json`),
    error: null,
    confound: i === 0 ? "(baseline)" : "-",
    resolved_environment: { name: `env${i % 4}` },
  };
}

/**
 * Writes `dir/matrix.json` with `cells` generated cells (streamed out in chunks, so a 200 MB file
 * never exists as one string here) and returns its size in bytes. `omit`: fields no cell records
 * (an older producer's matrix).
 */
export function bigMatrix(dir: string, cells: number, samples = 20, { omit = [] }: { omit?: readonly string[] } = {}): number {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "matrix.json");
  const fd = fs.openSync(file, "w");
  try {
    const header = {
      schema_version: 1,
      workload: "sweep",
      ticket: "BIG-1",
      trials_per_cell: 8,
      steps_per_trial: samples,
      run_timestamp: "2026-06-01T00:00:00Z",
      baseline_cell: "m0_e0_0",
      warnings: [],
    };
    fs.writeSync(fd, `${JSON.stringify(header).slice(0, -1)},"cells":[`);
    let chunk: string[] = [];
    for (let i = 0; i < cells; i++) {
      const c: Record<string, unknown> = cell(i, samples);
      for (const key of omit) delete c[key];
      chunk.push(JSON.stringify(c));
      if (chunk.length === 500 || i === cells - 1) {
        fs.writeSync(fd, (i >= 500 && chunk.length > 0 ? "," : "") + chunk.join(","));
        chunk = [];
      }
    }
    fs.writeSync(fd, "]}");
  } finally {
    fs.closeSync(fd);
  }
  return fs.statSync(file).size;
}
