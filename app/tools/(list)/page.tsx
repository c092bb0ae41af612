import { ToolList } from "@/components/tools/tool-list";
import { PageHeader } from "@/components/ui/page-header";
import { getRegistry } from "@/lib/server/runtime/registry";
import { lastReload, reloadInProgress } from "@/lib/server/runtime/server-reload";
import { toolsResponse } from "@/lib/server/tools-page/tools-view";

export const metadata = { title: "Tools" };

export default async function ToolsPage() {
  const initial = await toolsResponse(await getRegistry(), lastReload(), reloadInProgress());
  return (
    <>
      <PageHeader title="Tools" description="Every registered tool: built-in, from installed plugin packages, and from MCP servers." />
      <div className="p-6">
        <ToolList initial={initial} />
      </div>
    </>
  );
}
