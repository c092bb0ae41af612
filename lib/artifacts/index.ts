/** Run artifacts: discovery, typed readers, summaries and comparisons (server-side; reads the filesystem). */
export { discoverRuns, discoverRunsAsync, describeRunDir, listRunEnvironments, MAX_DEPTH, type RunEntry } from "./discover";
export { KNOWN_ARTIFACTS, type RunLayout } from "./layout";
export { tooBigError, type FileResult } from "./json";
export { preview } from "./fields";
export { readMatrixFile, isFailedCell, type Matrix, type MatrixCell } from "./matrix";
export { readEnvFile, envFacts, type EnvDoc, type Fact } from "./env";
export { readSanitizerReportFile, groupFindings, type SanitizerReport, type FindingGroup, type RunMeta } from "./sanitizer";
export { readRun, readRunEntry, type RunData } from "./run";
export { summarizeRun, cellLabel, type RunSummary, type RunKind } from "./summary";
export { compareMatrices, diffEnv, mostChanged, rateTone, type CellDelta, type EnvDiff } from "./compare";
export { runSearchDocs, type RunSearchDoc } from "./search-docs";
