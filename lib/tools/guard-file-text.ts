// Text only (no fs): client components show it too.

/** What the AI-assisted guard file is, said wherever it is mentioned (Settings, a tool card's "changed files"). */
export const GUARD_FILE_EXPLAINED =
  "The AI-assisted guard file: when a tool call changes files (its result says madeChanges), Toolroom appends the driving model (provider/model) to it, " +
  "so a git commit hook can mark the next commit as AI-assisted. Default: .git/commit-temp/ai-assisted inside a git work tree, else .toolroom/ai-assisted " +
  "under the source root; the aiAssistedGuardFile setting picks another file (relative to sourceRoot).";
