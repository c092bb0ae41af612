import type { Diagnostic } from "@/lib/tools/registry-types";

/** The element id of a diagnostic, so a failed source can link to the reason it failed. */
export function diagnosticId(d: Pick<Diagnostic, "package" | "entry">): string {
  return `diagnostic-${`${d.package}-${d.entry}`.replace(/[^A-Za-z0-9_-]+/g, "-")}`;
}
