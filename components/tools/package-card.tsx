import type { RegisteredTool } from "@/lib/tools/registry-types";

/**
 * Where the tool comes from: package, version, folder and the manifest entry `file#export`; for an
 * MCP tool, the server (command line or URL), the tool's name there, and the folder it runs in.
 */
export function PackageCard({ tool }: { tool: Pick<RegisteredTool, "sourcePackage" | "version" | "origin" | "packageDir" | "entry"> }) {
  const rows: [string, string, string][] =
    tool.origin === "mcp"
      ? [
          ["Source", tool.sourcePackage, "package-name"],
          ["Version", tool.version, "package-version"],
          ["Origin", "MCP server", "package-origin"],
          ["Server", tool.entry.file, "package-entry"],
          ["Tool", tool.entry.exportName, "package-export"],
          // An HTTP server's location is its URL, already shown as the server.
          ...(tool.packageDir !== tool.entry.file ? [["Runs in", tool.packageDir, "package-dir"] as [string, string, string]] : []),
        ]
      : [
          ["Package", tool.sourcePackage, "package-name"],
          ["Version", tool.version, "package-version"],
          ["Origin", tool.origin === "builtin" ? "built-in (this repository)" : "plugin package", "package-origin"],
          ["Folder", tool.packageDir, "package-dir"],
          ["Entry", `${tool.entry.file}#${tool.entry.exportName}`, "package-entry"],
        ];
  return (
    <dl className="grid grid-cols-[5rem_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm" data-testid="package-card">
      {rows.map(([k, v, id]) => (
        <div key={k} className="contents">
          <dt className="text-xs text-muted sm:pt-0.5">{k}</dt>
          <dd className="font-mono text-[13px] break-all" data-testid={id}>
            {v}
          </dd>
        </div>
      ))}
    </dl>
  );
}
