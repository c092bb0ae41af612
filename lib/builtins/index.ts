import type { Settings } from "@/lib/settings/schema";
import type { BuiltinEntry } from "@/lib/tools/registry";
import { listFiles, readFile } from "./files";
import { grepCode } from "./grep";
import { searchRepoMap } from "./repo-map";
import { listRuns, readRunEnv, readRunMatrix, searchRunArtifacts } from "./runs";
import { searchCode } from "./search";
import { runTerminalCommand } from "./shell";

/**
 * The shipped tools. `run_terminal_command` exists — in the registry, the prompts and the UI —
 * only when settings enable it.
 */
export function builtinEntries(settings: Settings): BuiltinEntry[] {
  const entries: BuiltinEntry[] = [
    { tool: listFiles, file: "lib/builtins/files.ts", exportName: "listFiles" },
    { tool: readFile, file: "lib/builtins/files.ts", exportName: "readFile" },
    { tool: grepCode, file: "lib/builtins/grep.ts", exportName: "grepCode" },
    { tool: searchCode, file: "lib/builtins/search.ts", exportName: "searchCode" },
    { tool: searchRepoMap, file: "lib/builtins/repo-map.ts", exportName: "searchRepoMap" },
    { tool: listRuns, file: "lib/builtins/runs.ts", exportName: "listRuns" },
    { tool: readRunMatrix, file: "lib/builtins/runs.ts", exportName: "readRunMatrix" },
    { tool: readRunEnv, file: "lib/builtins/runs.ts", exportName: "readRunEnv" },
    { tool: searchRunArtifacts, file: "lib/builtins/runs.ts", exportName: "searchRunArtifacts" },
  ];
  if (settings.tools.run_terminal_command.enabled) {
    entries.push({ tool: runTerminalCommand, file: "lib/builtins/shell.ts", exportName: "runTerminalCommand" });
  }
  return entries;
}
