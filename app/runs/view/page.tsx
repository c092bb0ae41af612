import Link from "next/link";
import { CaseGrid } from "@/components/evals/case-grid";
import { EvalRunSummary, Recommendations } from "@/components/evals/eval-run-summary";
import { ChildRuns } from "@/components/runs/child-runs";
import { EnvSection } from "@/components/runs/env-section";
import { FilesSection } from "@/components/runs/files-section";
import { FindingsSection } from "@/components/runs/findings-section";
import { MatrixSection } from "@/components/runs/matrix-section";
import { RunHeader } from "@/components/runs/run-header";
import { LoadError } from "@/components/runs/load-error";
import { FactList, Section } from "@/components/runs/section";
import { PageHeader } from "@/components/ui/page-header";
import { loadRunView } from "@/lib/server/runs/load";
import { param } from "@/lib/server/runs/runs-root";

export async function generateMetadata({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const rel = param((await searchParams).path);
  return { title: rel ? `${rel} · Runs` : "Run" };
}

export default async function RunPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const sp = await searchParams;
  const override = param(sp.root);
  const rel = param(sp.path);
  const back = override ? `/runs?root=${encodeURIComponent(override)}` : "/runs";
  const loaded = await loadRunView(override, rel);
  if (!loaded.ok) return <LoadError title="Run" heading="This run cannot be opened" error={loaded.error} back={back} />;
  const view = loaded.data;
  return (
    <>
      <PageHeader
        title={view.row.case ?? view.row.workload ?? view.row.rel}
        description={
          <span className="font-mono text-xs" data-testid="run-path">
            {view.row.rel}
          </span>
        }
        actions={
          <Link href={back} className="text-sm text-muted hover:text-fg" data-testid="back-to-runs">
            ← All runs
          </Link>
        }
      />
      <div className="space-y-6 p-6">
        {view.eval ? (
          <>
            <EvalRunSummary view={view.eval} run={view} />
            <CaseGrid view={view.eval} root={view.override} path={view.row.rel} />
          </>
        ) : (
          <RunHeader view={view} />
        )}
        {view.matrix ? <MatrixSection matrix={view.matrix} root={view.override} path={view.row.rel} evalRun={Boolean(view.eval)} /> : null}
        {view.matrixError ? (
          <Section title="Matrix" testId="matrix-section">
            <p className="rounded-lg border border-dashed border-denied/40 p-4 font-mono text-xs text-denied" data-testid="matrix-error">
              {view.matrixError}
            </p>
          </Section>
        ) : null}
        {view.sanitizer ? <FindingsSection report={view.sanitizer} /> : null}
        {view.sanitizerError ? (
          <p className="font-mono text-xs text-denied" role="alert">
            {view.sanitizerError}
          </p>
        ) : null}
        {view.meta ? (
          <Section title="Dashboard run" testId="meta-section">
            <div className="rounded-lg border border-border bg-panel p-4">
              <FactList facts={view.meta} />
            </div>
          </Section>
        ) : null}
        <ChildRuns runs={view.children} override={view.override} />
        {view.eval ? null : <EnvSection envs={view.envs} />}
        <FilesSection files={view.files} override={view.override} />
        {/* An eval's page ends with its answer: which mode and protocol to use per model. */}
        {view.eval ? <Recommendations view={view.eval} /> : null}
      </div>
    </>
  );
}
