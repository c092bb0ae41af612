import { ArrowDown, ArrowUp } from "lucide-react";
import { cn } from "@/components/ui/cn";
import { Button } from "@/components/ui/button";

type Sort<K> = { key: K; dir: "asc" | "desc" };

export function ariaSort<K>(sort: Sort<K>, key: K): "ascending" | "descending" | "none" {
  return sort.key === key ? (sort.dir === "asc" ? "ascending" : "descending") : "none";
}

/** The button inside a sortable column header; the header cell carries `aria-sort`. */
export function SortButton<K extends string>({
  label,
  sortKey,
  sort,
  onSort,
  right,
}: {
  label: string;
  sortKey: K;
  sort: Sort<K>;
  onSort: (key: K) => void;
  right?: boolean;
}) {
  const active = sort.key === sortKey;
  return (
    <Button
      variant="plain"
      size="bare"
      onClick={() => onSort(sortKey)}
      data-testid={`sort-${sortKey}`}
      className={cn(
        "inline-flex items-center gap-0.5 font-medium whitespace-nowrap hover:text-fg",
        active ? "text-fg" : "text-muted",
        right && "flex-row-reverse",
      )}
    >
      {label}
      {active ? sort.dir === "asc" ? <ArrowUp size={11} aria-hidden /> : <ArrowDown size={11} aria-hidden /> : null}
    </Button>
  );
}
