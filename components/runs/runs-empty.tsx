import { EmptyState } from "@/components/ui/empty-state";

/** What a runs root is and how to point Toolroom at one: shown whenever there is nothing to list. */
export function RunsRootHelp() {
  return (
    <div className="space-y-2 text-left">
      <p>
        Toolroom reads runs from <code className="font-mono">runsRoot</code> in settings (<code className="font-mono">./toolroom.yaml</code>,{" "}
        <code className="font-mono">--config</code>) or the <code className="font-mono">TOOLROOM_RUNSROOT</code> variable, or from the folder typed above.
      </p>
      <p>A run is a folder at most 4 levels down holding one of these layouts:</p>
      <ul className="space-y-0.5 font-mono text-xs">
        <li>&lt;ticket&gt;/&lt;workload&gt;/&lt;timestamp&gt;/matrix.json, host_env.json</li>
        <li>&lt;ticket&gt;/matrix.json or host_env.json (probe)</li>
        <li>runs/&lt;id&gt;/&lt;case&gt;/sanitizer_report.json, env.json</li>
      </ul>
    </div>
  );
}

/** `errorShown`: the page already shows `rootError` above (an override), so it is not repeated here. */
export function RunsEmpty({ root, rootError, errorShown, filtered }: { root: string; rootError: string | null; errorShown: boolean; filtered: boolean }) {
  if (filtered) {
    return (
      <EmptyState title="No run matches" testId="runs-empty">
        Try another search or clear the filters.
      </EmptyState>
    );
  }
  return (
    <EmptyState title={rootError ? "The runs root cannot be read" : "No runs found"} testId="runs-empty">
      <p className="mb-3 font-mono text-xs break-all" data-testid="runs-empty-root">
        {rootError ? (errorShown ? "Why is said above." : rootError) : `Nothing under ${root}`}
      </p>
      <RunsRootHelp />
    </EmptyState>
  );
}
