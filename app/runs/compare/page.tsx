import Link from "next/link";
import { RunDiffView } from "@/components/runs/run-diff-view";
import { LoadError } from "@/components/runs/load-error";
import { PageHeader } from "@/components/ui/page-header";
import { loadRunDiff } from "@/lib/server/runs/load";
import { param } from "@/lib/server/runs/runs-root";

export const metadata = { title: "Compare runs" };

export default async function RunDiffPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const sp = await searchParams;
  const override = param(sp.root);
  const back = override ? `/runs?root=${encodeURIComponent(override)}` : "/runs";
  const loaded = await loadRunDiff(override, param(sp.a), param(sp.b));
  if (!loaded.ok) return <LoadError title="Compare runs" heading="These runs cannot be compared" error={loaded.error} back={back} />;
  return (
    <>
      <PageHeader
        title="Compare runs"
        description={
          loaded.data.evalCells
            ? "Cases and cells matched by name; B − A. Red is worse (a lower pass rate), green is better."
            : "Cells matched by name; B − A. Red is worse (more failures, slower), green is better."
        }
        actions={
          <Link href={back} className="text-sm text-muted hover:text-fg">
            ← All runs
          </Link>
        }
      />
      <div className="p-6">
        <RunDiffView view={loaded.data} />
      </div>
    </>
  );
}
