import { cn } from "@/components/ui/cn";
import type { SchemaRow } from "./schema-rows";
import { Table, TableHeader, TableBody, TableRow, TableHead, TableCell } from "@/components/ui/table";

/** The input schema as a table: one row per property, nested ones indented under their parent. */
export function SchemaTable({ rows }: { rows: SchemaRow[] }) {
  if (rows.length === 0)
    return (
      <p className="text-sm text-muted" data-testid="schema-table-empty">
        This tool takes no arguments.
      </p>
    );
  return (
    <div className="overflow-x-auto rounded-md border border-border">
      <Table className="w-full min-w-[640px] border-collapse text-left text-sm" data-testid="schema-table">
        <TableHeader className="bg-subtle text-xs text-muted">
          <TableRow>
            <TableHead className="px-3 py-1.5 font-medium">Name</TableHead>
            <TableHead className="px-3 py-1.5 font-medium">Type</TableHead>
            <TableHead className="px-3 py-1.5 font-medium">Required</TableHead>
            <TableHead className="px-3 py-1.5 font-medium">Default</TableHead>
            <TableHead className="px-3 py-1.5 font-medium">Description and constraints</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody className="divide-y divide-border">
          {rows.map((r) => (
            <TableRow key={r.path} data-testid="schema-row" data-path={r.path} className="align-top">
              <TableCell className="px-3 py-1.5 whitespace-nowrap">
                <span className="font-mono text-[13px]" style={{ paddingLeft: `${r.depth * 1.1}rem` }}>
                  {r.depth > 0 ? <span className="text-muted">└ </span> : null}
                  <span className={cn(r.name.startsWith("[") || r.name.startsWith("option") ? "text-muted italic" : "font-medium")}>{r.name}</span>
                </span>
              </TableCell>
              <TableCell className="px-3 py-1.5 font-mono text-xs whitespace-nowrap text-accent">
                {r.type}
                {r.nullable ? <span className="text-muted"> | null</span> : null}
                {r.refName && r.refName !== r.type ? <span className="ml-1 text-muted">({r.refName})</span> : null}
                {r.recursive ? <span className="ml-1 text-muted">↺ recursive</span> : null}
              </TableCell>
              <TableCell className="px-3 py-1.5 text-xs">
                {r.required ? <span className="font-medium">required</span> : <span className="text-muted">optional</span>}
              </TableCell>
              <TableCell className="px-3 py-1.5 font-mono text-xs">{r.defaultValue ?? <span className="text-muted">—</span>}</TableCell>
              <TableCell className="px-3 py-1.5">
                {r.description ? <div>{r.description}</div> : null}
                {r.enumValues || r.constraints.length ? (
                  <div className="mt-0.5 flex flex-wrap gap-1">
                    {r.enumValues?.map((v) => (
                      <code key={v} className="rounded border border-border px-1 font-mono text-[11px]">
                        {v}
                      </code>
                    ))}
                    {r.constraints.map((c) => (
                      <span key={c} className="rounded bg-subtle px-1 font-mono text-[11px] text-muted">
                        {c}
                      </span>
                    ))}
                  </div>
                ) : null}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
