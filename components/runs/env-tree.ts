/** A JSON document flattened to rows for a collapsible, searchable tree. */
export interface TreeNode {
  /** `rocm.version`, `gpu_arch.gfx_targets[0]`; "" for the root. */
  path: string;
  key: string;
  depth: number;
  kind: "object" | "array" | "value";
  /** Leaves only: the value on one line. */
  text: string | null;
  childCount: number;
  parent: string | null;
}

const MAX_LEAF = 300;

function childPath(at: string, key: string | number): string {
  if (typeof key === "number") return `${at}[${key}]`;
  return at ? `${at}.${key}` : key;
}

function leafText(v: unknown): string {
  const t = typeof v === "string" ? JSON.stringify(v) : String(JSON.stringify(v) ?? v);
  return t.length > MAX_LEAF ? `${t.slice(0, MAX_LEAF - 1)}…` : t;
}

/** Rows in document order; the root itself is not a row. */
export function flattenJson(value: unknown): TreeNode[] {
  const out: TreeNode[] = [];
  const visit = (v: unknown, key: string, path: string, depth: number, parent: string | null) => {
    if (Array.isArray(v)) {
      out.push({ path, key, depth, kind: "array", text: null, childCount: v.length, parent });
      v.forEach((x, i) => visit(x, `[${i}]`, childPath(path, i), depth + 1, path));
    } else if (typeof v === "object" && v !== null) {
      const entries = Object.entries(v);
      out.push({ path, key, depth, kind: "object", text: null, childCount: entries.length, parent });
      for (const [k, x] of entries) visit(x, k, childPath(path, k), depth + 1, path);
    } else {
      out.push({ path, key, depth, kind: "value", text: leafText(v), childCount: 0, parent });
    }
  };
  if (Array.isArray(value)) value.forEach((x, i) => visit(x, `[${i}]`, childPath("", i), 0, null));
  else if (typeof value === "object" && value !== null) for (const [k, x] of Object.entries(value)) visit(x, k, k, 0, null);
  return out;
}

/**
 * The rows to show. Without a query: rows whose ancestors are all open. With a query: rows whose
 * path or value matches, plus their ancestors (shown open) — a search never hides its own hits.
 */
export function visibleNodes(nodes: readonly TreeNode[], open: ReadonlySet<string>, query: string): TreeNode[] {
  const q = query.trim().toLowerCase();
  if (!q) {
    const shown = new Set<string>();
    return nodes.filter((n) => {
      const ok = n.parent === null || (shown.has(n.parent) && open.has(n.parent));
      if (ok) shown.add(n.path);
      return ok;
    });
  }
  const byPath = new Map(nodes.map((n) => [n.path, n]));
  const keep = new Set<string>();
  for (const n of nodes) {
    if (n.path.toLowerCase().includes(q) || (n.text !== null && n.text.toLowerCase().includes(q))) {
      for (let p: string | null = n.path; p !== null && !keep.has(p); p = byPath.get(p)?.parent ?? null) keep.add(p);
    }
  }
  return nodes.filter((n) => keep.has(n.path));
}

/** Containers open by default: the first level, so the top keys and their children show. */
export function defaultOpen(nodes: readonly TreeNode[]): Set<string> {
  return new Set(nodes.filter((n) => n.kind !== "value" && n.depth === 0 && n.childCount <= 40).map((n) => n.path));
}
