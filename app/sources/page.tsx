import { Suspense } from "react";
import { SourcesView } from "@/components/sources/sources-view";
import { PageHeader } from "@/components/ui/page-header";
import { getRegistry } from "@/lib/server/runtime/registry";
import { listSources } from "@/lib/server/sources/sources-view";

export const metadata = { title: "Sources" };
export const dynamic = "force-dynamic";

export default async function SourcesPage() {
  const sources = listSources(await getRegistry());
  return (
    <>
      <PageHeader title="Sources" description="The MCP servers of mcpServers: their resources, prompts, tools, capabilities and JSON-RPC traffic." />
      <div className="p-6">
        <Suspense>
          <SourcesView sources={sources} />
        </Suspense>
      </div>
    </>
  );
}
