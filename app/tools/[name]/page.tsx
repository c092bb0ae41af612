import { ArrowLeft } from "lucide-react";
import { RoleGate } from "@/components/auth/role-gate";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { badgeLabel, badgesOf, ToolBadge } from "@/components/tools/badges";
import { McpSourceNote } from "@/components/tools/mcp-source-note";
import { PackageCard } from "@/components/tools/package-card";
import { schemaRows } from "@/components/tools/schema-rows";
import { SchemaTable } from "@/components/tools/schema-table";
import { SearchIndexPanel } from "@/components/tools/search-index-panel";
import { INDEXED_TOOLS } from "@/lib/server/search-index/search-index";
import { Section } from "@/components/tools/section";
import { SourceView } from "@/components/tools/source-view";
import { ToolDocs } from "@/components/tools/tool-docs";
import { TryItPanel } from "@/components/tools/try-it/try-it-panel";
import { ViewTabs } from "@/components/tools/view-tabs";
import { highlightCode } from "@/lib/server/tools-page/highlight";
import { getRegistry } from "@/lib/server/runtime/registry";
import { readToolSource } from "@/lib/server/tools-page/source-code";
import { registryJson, staleLabel } from "@/lib/tools/registry-json";
import { lintTool } from "@/lib/tools/lint";
import { registryCost } from "@/lib/server/tools-page/token-cost";
import { ToolQuality } from "@/components/tools/tool-quality";

type Params = { params: Promise<{ name: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { name } = await params;
  return { title: name };
}

export default async function ToolPage({ params }: Params) {
  const { name } = await params;
  const registry = await getRegistry();
  const tool = registry.get(name);
  // The page shows the same JSON as `GET /api/tools` and `toolroom tools --json`.
  const json = registryJson(registry)[name];
  if (!tool || !json) notFound();

  // An MCP tool's code lives in its server's process: there is no file here to read.
  const source = tool.origin === "mcp" ? null : readToolSource(tool.packageDir, tool.entry.file, tool.entry.exportName);
  let html: string | null = null;
  if (source?.ok) {
    try {
      html = await highlightCode(source.code, source.lang, source.exportRange);
    } catch (error) {
      // Plain text is still the code; log why the colours are missing.
      console.error(`toolroom: highlighting ${tool.entry.file} failed: ${(error as Error).message}`);
    }
  }
  const rows = schemaRows(json.input_schema);
  const cost = await registryCost(registry);

  return (
    <>
      <div className="border-b border-border px-6 pt-4 pb-4">
        <Link href="/tools" className="inline-flex items-center gap-1 text-xs text-muted hover:text-fg" data-testid="back-to-tools">
          <ArrowLeft size={12} aria-hidden /> All tools
        </Link>
        <div className="mt-1.5 flex flex-wrap items-center gap-x-3 gap-y-1.5">
          <h1 className="font-mono text-lg font-semibold tracking-tight" data-testid="tool-name">
            {tool.name}
          </h1>
          <span className="font-mono text-sm text-muted" data-testid="tool-source">
            [{tool.sourcePackage}] {tool.version}
          </span>
          <div className="flex flex-wrap gap-1">
            {badgesOf(json).map((b) => (
              <ToolBadge key={b} kind={b} label={badgeLabel(b, json)} />
            ))}
          </div>
        </div>
        {tool.stale ? (
          <p className="mt-2 text-xs text-amber-700 dark:text-pending" data-testid="tool-stale" suppressHydrationWarning>
            {staleLabel(tool.stale)}. This is the last version that loaded.
          </p>
        ) : null}
      </div>

      {/* Narrow screens: docs, then try-it, then the (long) source. Wide: try-it in a column beside. */}
      <div className="grid gap-6 p-6 xl:grid-cols-[minmax(0,1fr)_26rem] xl:grid-rows-[auto_1fr]">
        <div className="min-w-0 space-y-6 xl:col-start-1 xl:row-start-1">
          <Section title="Documentation" id="docs">
            <ToolDocs description={tool.description} />
          </Section>
          <Section title="Cost and lint" id="quality">
            <ToolQuality cost={cost.perTool[tool.name] ?? { native: 0, text: 0 }} tokenizer={cost.tokenizer} findings={lintTool(tool)} />
          </Section>
          {INDEXED_TOOLS[tool.name] && tool.origin === "builtin" ? (
            <Section title="Search index" id="search-index">
              <SearchIndexPanel tool={tool.name} />
            </Section>
          ) : null}
          <Section title="Input schema" id="schema">
            <ViewTabs
              label="Schema view"
              tabs={[
                { id: "schema-table", label: "Table", content: <SchemaTable rows={rows} /> },
                {
                  id: "schema-json",
                  label: "JSON",
                  content: (
                    <pre
                      className="max-h-[28rem] overflow-auto rounded-md border border-border bg-subtle p-3 font-mono text-xs leading-5"
                      data-testid="schema-json"
                    >
                      {JSON.stringify(json.input_schema, null, 2)}
                    </pre>
                  ),
                },
              ]}
            />
          </Section>
        </div>
        <aside className="min-w-0 xl:sticky xl:top-4 xl:col-start-2 xl:row-span-2 xl:row-start-1 xl:self-start">
          <Section title="Try it" id="try-it" boxed>
            <RoleGate role="member" note="Trying a tool runs it: members and admins may; you are signed in as a viewer.">
              <TryItPanel
                tool={tool.name}
                schema={json.input_schema}
                enabled={tool.enabled}
                requiresConfirmation={tool.requiresConfirmation}
                confirmWhen={json.confirm_when}
              />
            </RoleGate>
          </Section>
        </aside>
        <div className="min-w-0 space-y-6 xl:col-start-1 xl:row-start-2">
          <Section title={tool.origin === "mcp" ? "Source server" : "Source package"} id="package">
            <PackageCard tool={tool} />
          </Section>
          <Section title="Source code" id="source">
            {source ? <SourceView source={source} html={html} exportName={tool.entry.exportName} /> : <McpSourceNote tool={tool} />}
          </Section>
        </div>
      </div>
    </>
  );
}
