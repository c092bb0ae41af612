"use client";

import { useQuery } from "@tanstack/react-query";
import { errorFromResponse } from "@/lib/client/fetch-json";
import { queryKeys } from "@/lib/client/query-keys";
import { fileHref } from "./filter-runs";

/** Above this size the viewer shows the text as recorded instead of re-indenting it. */
const PRETTY_MAX = 2 * 1024 * 1024;

export interface RawFile {
  text: string;
  /** Set when the text is not valid JSON (the viewer still shows it). */
  note: string | null;
}

async function fetchRaw(rel: string, override: string | null): Promise<RawFile> {
  // An artifact is text as recorded, not a JSON answer: only its failure goes through the shared reading.
  const response = await fetch(fileHref(rel, override));
  if (!response.ok) throw await errorFromResponse(response, `GET ${rel}`);
  const text = await response.text();
  if (!rel.endsWith(".json") || text.length > PRETTY_MAX) return { text, note: null };
  try {
    return { text: JSON.stringify(JSON.parse(text), null, 2), note: null };
  } catch {
    return { text, note: "Not valid JSON: shown exactly as recorded." };
  }
}

export function useRawFile(rel: string, override: string | null, enabled: boolean) {
  return useQuery({ queryKey: queryKeys.runs.file(override, rel), queryFn: () => fetchRaw(rel, override), enabled, staleTime: 60_000 });
}
