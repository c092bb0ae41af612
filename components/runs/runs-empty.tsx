import { FolderOpen } from "lucide-react";
import Link from "next/link";
import { buttonVariants } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";

/** What a runs root is and how to point Toolroom at one: shown whenever there is nothing to list. */
export function RunsRootHelp() {
  return (
    <div className="space-y-2 text-left">
      <p>
        Toolroom reads runs from <code className="font-mono">runsRoot</code> in settings (<code className="font-mono">runsRoot: /path/to/runs</code> in{" "}
        <code className="font-mono">./toolroom.yaml</code>), the <code className="font-mono">TOOLROOM_RUNSROOT</code> variable, or the folder typed above.
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

/** The bundled example runs: a link for the page, the command for a terminal. */
function ExampleRuns({ examples }: { examples: string }) {
  return (
    <div className="mt-4 space-y-2 border-t border-border pt-4">
      <Link href={`/runs?root=${encodeURIComponent(examples)}`} className={buttonVariants({ variant: "primary" })} data-testid="open-example-runs">
        <FolderOpen size={14} aria-hidden /> Open the example runs
      </Link>
      <p className="text-xs">or in a terminal:</p>
      <code className="block rounded bg-subtle px-2 py-1 text-left font-mono text-xs break-all">toolroom runs --root {examples}</code>
    </div>
  );
}

interface RunsEmptyProps {
  root: string;
  rootError: string | null;
  /** The page already shows `rootError` above (an override), so it is not repeated here. */
  errorShown: boolean;
  filtered: boolean;
  /** The default runsRoot does not exist yet: a fresh clone, not a mistake. */
  noRunsYet?: boolean;
  examples?: string | null;
}

export function RunsEmpty({ root, rootError, errorShown, filtered, noRunsYet, examples }: RunsEmptyProps) {
  if (filtered) {
    return (
      <EmptyState title="No run matches" testId="runs-empty">
        Try another search or clear the filters.
      </EmptyState>
    );
  }
  if (noRunsYet) {
    return (
      <EmptyState title="No runs yet" testId="runs-empty">
        <p className="mb-3" data-testid="runs-empty-root">
          The default runs root <code className="font-mono break-all">{root}</code> does not exist yet. A run folder is what a test or benchmark harness wrote:
          its <code className="font-mono">matrix.json</code> and environment files.
        </p>
        <RunsRootHelp />
        {examples ? <ExampleRuns examples={examples} /> : null}
      </EmptyState>
    );
  }
  return (
    <EmptyState title={rootError ? "The runs root cannot be read" : "No runs found"} testId="runs-empty">
      <p className="mb-3 font-mono text-xs break-all" data-testid="runs-empty-root">
        {rootError ? (errorShown ? "Why is said above." : rootError) : `Nothing under ${root}`}
      </p>
      <RunsRootHelp />
      {examples && !rootError ? <ExampleRuns examples={examples} /> : null}
    </EmptyState>
  );
}
