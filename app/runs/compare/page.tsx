import Link from "next/link";
import { CompareView } from "@/components/runs/compare-view";
import { LoadError } from "@/components/runs/load-error";
import { PageHeader } from "@/components/ui/page-header";
import { loadCompare } from "../_lib/load";
import { param } from "../_lib/runs-root";

export const metadata = { title: "Compare runs" };

export default async function ComparePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const sp = await searchParams;
  const override = param(sp.root);
  const back = override ? `/runs?root=${encodeURIComponent(override)}` : "/runs";
  const loaded = await loadCompare(override, param(sp.a), param(sp.b));
  if (!loaded.ok) return <LoadError title="Compare runs" heading="These runs cannot be compared" error={loaded.error} back={back} />;
  return (
    <>
      <PageHeader
        title="Compare runs"
        description="Cells matched by name; B − A. Red is worse (more failures, slower), green is better."
        actions={
          <Link href={back} className="text-sm text-muted hover:text-fg">
            ← All runs
          </Link>
        }
      />
      <div className="p-6">
        <CompareView view={loaded.data} />
      </div>
    </>
  );
}
