import { RunList } from "@/components/runs/run-list";
import { PageHeader } from "@/components/ui/page-header";
import { loadRunList } from "@/lib/server/runs/load";
import { param } from "@/lib/server/runs/runs-root";

export const metadata = { title: "Runs" };

export default async function RunsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { status: _status, ...initial } = await loadRunList(param((await searchParams).root));
  return (
    <>
      <PageHeader
        title="Runs"
        description={
          <>
            Run artifacts under{" "}
            <code className="font-mono" data-testid="runs-root">
              {initial.root}
            </code>
            {initial.override ? " (override)" : " (settings: runsRoot)"}
          </>
        }
      />
      <div className="p-6">
        <RunList key={initial.override ?? ""} initial={initial} />
      </div>
    </>
  );
}
