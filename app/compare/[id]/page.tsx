import { notFound } from "next/navigation";
import { CompareView } from "@/components/compare/compare-view";
import { asPagePerson } from "@/lib/server/auth/page-person";
import { comparisonDetail } from "@/lib/server/compare/compare-service";
import { getRegistry } from "@/lib/server/runtime/registry";
import { registryJson } from "@/lib/tools/registry-json";

export const metadata = { title: "Comparison" };

export default async function ComparisonPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) notFound();
  const [comparison, registry] = await Promise.all([asPagePerson(() => comparisonDetail(id)), getRegistry()]);
  if (!comparison) notFound();
  return <CompareView key={id} comparison={comparison} tools={registryJson(registry)} />;
}
