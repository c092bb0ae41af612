import { CollectionsView } from "@/components/collections/collections-view";
import { PageHeader } from "@/components/ui/page-header";
import { collectionsOverview } from "@/lib/server/collections/collection-runs";

export const metadata = { title: "Collections" };
export const dynamic = "force-dynamic";

export default async function CollectionsPage() {
  const initial = await collectionsOverview();
  return (
    <>
      <PageHeader
        title="Collections"
        description={
          <>
            Saved tool calls with what they must return (<code className="font-mono">*.calls.yaml</code>), run in order as a regression suite; in CI:{" "}
            <code className="font-mono">toolroom collection run FILE</code>.
          </>
        }
      />
      <CollectionsView initial={initial} />
    </>
  );
}
