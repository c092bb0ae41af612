import { ComparisonList } from "@/components/compare/comparison-list";
import { PageHeader } from "@/components/ui/page-header";
import { asPagePerson } from "@/lib/server/auth/page-person";
import { comparisonList } from "@/lib/server/compare/compare-service";

export const metadata = { title: "Compare" };

export default async function ComparePage() {
  const comparisons = await asPagePerson(comparisonList);
  return (
    <>
      <PageHeader title="Comparisons" description="One prompt, several models and tool modes, side by side. Start one from a chat with “Compare…”." />
      <div className="p-6">
        <ComparisonList comparisons={comparisons} />
      </div>
    </>
  );
}
