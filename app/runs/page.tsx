import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { getSettings, runsRootOf } from "@/lib/settings";

export const metadata = { title: "Runs" };

export default function RunsPage() {
  const root = runsRootOf(getSettings());
  return (
    <>
      <PageHeader title="Runs" description={<>Run artifacts under <code className="font-mono">{root}</code></>} />
      <EmptyState title="The runs browser is coming" testId="runs-placeholder">
        Runs are read from <code className="font-mono">runsRoot</code> in settings.
      </EmptyState>
    </>
  );
}
