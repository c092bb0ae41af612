import type { Settings } from "@/lib/settings/schema";
import type { BuiltinEntry } from "@/lib/tools/registry";
import { listFiles, readFile } from "./files";
import { grepCode } from "./grep";
import { searchRepoMap } from "./repo-map";
import { hybridSearchRunArtifacts, listRuns, readRunEnv, readRunMatrix, searchRunArtifacts } from "./runs";
import { hybridSearchCode, searchCode } from "./search";
import { runTerminalCommand } from "./shell";

/**
 * The shipped tools. `run_terminal_command` exists — in the registry, the prompts and the UI —
 * only when settings enable it.
 */
export function builtinEntries(settings: Settings): BuiltinEntry[] {
  // With an embedding model the search tools rank by meaning too, and their descriptions say so.
  const hybrid = settings.search.embeddings !== undefined;
  const entries: BuiltinEntry[] = [
    { tool: listFiles, file: "lib/builtins/files.ts", exportName: "listFiles" },
    { tool: readFile, file: "lib/builtins/files.ts", exportName: "readFile" },
    { tool: grepCode, file: "lib/builtins/grep.ts", exportName: "grepCode" },
    hybrid
      ? { tool: hybridSearchCode, file: "lib/builtins/search.ts", exportName: "hybridSearchCode" }
      : { tool: searchCode, file: "lib/builtins/search.ts", exportName: "searchCode" },
    { tool: searchRepoMap, file: "lib/builtins/repo-map.ts", exportName: "searchRepoMap" },
    { tool: listRuns, file: "lib/builtins/runs.ts", exportName: "listRuns" },
    { tool: readRunMatrix, file: "lib/builtins/runs.ts", exportName: "readRunMatrix" },
    { tool: readRunEnv, file: "lib/builtins/runs.ts", exportName: "readRunEnv" },
    hybrid
      ? { tool: hybridSearchRunArtifacts, file: "lib/builtins/runs.ts", exportName: "hybridSearchRunArtifacts" }
      : { tool: searchRunArtifacts, file: "lib/builtins/runs.ts", exportName: "searchRunArtifacts" },
  ];
  if (settings.tools.run_terminal_command.enabled) {
    entries.push({ tool: runTerminalCommand, file: "lib/builtins/shell.ts", exportName: "runTerminalCommand" });
  }
  return entries;
}
