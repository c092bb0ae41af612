import { EvalsView } from "@/components/evals/evals-view";
import { PageHeader } from "@/components/ui/page-header";
import { evalRuns } from "@/lib/server/evals/eval-runs";
import { listSuites } from "@/lib/server/evals/suites";
import { getSettings } from "@/lib/settings";

export const metadata = { title: "Evals" };
export const dynamic = "force-dynamic";

export default function EvalsPage() {
  return (
    <>
      <PageHeader
        title="Evals"
        description={
          <>
            Tool-calling test suites (<code className="font-mono">*.eval.yaml</code>) over models × tool modes, through the chat engine. Results are runs under{" "}
            <code className="font-mono">runsRoot/evals</code>: compare them in Runs.
          </>
        }
      />
      <EvalsView initial={{ suites: listSuites(getSettings()), runs: evalRuns() }} />
    </>
  );
}
