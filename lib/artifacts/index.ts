/** Run artifacts: discovery, typed readers, summaries and comparisons (server-side; reads the filesystem). */
export {
  discoverRuns,
  discoverRunsAsync,
  clearDiscoveryCache,
  MAX_ENTRIES,
  type DiscoverOptions,
  describeRunDir,
  listRunEnvironments,
  MAX_DEPTH,
  type Discovery,
  type RunEntry,
} from "./discover";
export { pathFacts, timestampToIso, RUN_MARKERS, KNOWN_ARTIFACTS, type PathFacts, type RunLayout } from "./layout";
export {
  parseJson,
  readJsonFile,
  readTypedFile,
  lineColumn,
  tooBigError,
  DEFAULT_MAX_ARTIFACT_BYTES,
  type FileResult,
  type JsonParse,
  type ReadOptions,
} from "./json";
export { isRecord, preview, type ReadNotes } from "./fields";
export {
  readMatrix,
  readMatrixFile,
  matrixVerdict,
  isFailedCell,
  MATRIX_SCHEMA_VERSION,
  type Matrix,
  type MatrixCell,
  type MatrixHeader,
  type MatrixVerdict,
} from "./matrix";
export {
  readEnv,
  readEnvFile,
  envFacts,
  probeEnvFacts,
  runAreaFacts,
  isRunAreaManifest,
  RUN_AREA_SCHEMA,
  type EnvDoc,
  type ProbeEnv,
  type RunAreaManifest,
  type Fact,
} from "./env";
export {
  readSanitizerReport,
  readSanitizerReportFile,
  readMeta,
  readMetaFile,
  groupFindings,
  findingCount,
  SANITIZER_REPORT_SCHEMA,
  type SanitizerReport,
  type SanitizerCheck,
  type SanitizerFinding,
  type FindingGroup,
  type RunMeta,
} from "./sanitizer";
export {
  readDashboardIndex,
  readDashboardIndexFile,
  readVerdictBaselines,
  type DashboardIndex,
  type DashboardEntry,
  type DashboardRow,
  type DashboardSurveyCase,
  type VerdictBaseline,
} from "./dashboard";
export { readRun, readRunEntry, runErrors, runWarnings, type RunData, type EnvironmentFile } from "./run";
export { summarizeRun, failedCells, cellLabel, type RunSummary, type RunKind, type FailedCell } from "./summary";
export { compareMatrices, diffEnv, mostChanged, rateTone, type MatrixComparison, type CellDelta, type CellSide, type EnvDiff } from "./compare";
export { runSearchDocs, type RunSearchDoc } from "./search-docs";
