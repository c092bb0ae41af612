import { EvalsView } from "@/components/evals/evals-view";
import { PageHeader } from "@/components/ui/page-header";
import { evalsOverview } from "@/lib/server/evals/eval-runs";

export const metadata = { title: "Evals" };
export const dynamic = "force-dynamic";

export default async function EvalsPage() {
  const initial = await evalsOverview();
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
      <EvalsView initial={initial} />
    </>
  );
}
