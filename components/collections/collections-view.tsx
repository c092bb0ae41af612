"use client";

import { EmptyState } from "@/components/ui/empty-state";
import { CollectionCard } from "./collection-card";
import { useCollections, type CollectionsResponse } from "./use-collection-run";

/** Every collection of saved calls, each with its Run and its latest results. */
export function CollectionsView({ initial }: { initial: CollectionsResponse }) {
  const { data } = useCollections(initial);
  if (!data.collections.length)
    return (
      <EmptyState title="No collections yet" testId="collections-empty">
        Open a tool, run it in <strong>Try it</strong>, and choose <strong>Save to collection</strong>; or write a{" "}
        <code className="font-mono">*.calls.yaml</code> anywhere in the source root (see <code className="font-mono">examples/collections</code>).
      </EmptyState>
    );
  return (
    <div className="space-y-4 p-6" data-testid="collections">
      {data.collections.map((c) => (
        <CollectionCard key={c.key} listing={c} />
      ))}
    </div>
  );
}
