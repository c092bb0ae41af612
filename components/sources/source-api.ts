import { fetchJson } from "@/lib/client/fetch-json";
import type { CompletionRef, ResourcePart } from "@/lib/server/sources/source-actions";

/** The Sources routes, one function each; every failure is a FetchError with the server's words. */
const base = (server: string) => `/api/sources/${encodeURIComponent(server)}`;

export const sourceApi = {
  read: (server: string, uri: string) => fetchJson<{ parts: ResourcePart[] }>(`${base(server)}/read`, { method: "POST", json: { uri } }),
  subscribe: (server: string, uri: string, subscribed: boolean) =>
    fetchJson<{ ok: true }>(`${base(server)}/subscription`, { method: "POST", json: { uri, subscribed } }),
  prompt: (server: string, name: string, args: Record<string, string>) =>
    fetchJson<{ text: string; description?: string }>(`${base(server)}/prompt`, { method: "POST", json: { name, arguments: args } }),
  complete: (server: string, ref: CompletionRef, argument: { name: string; value: string }, context: Record<string, string>) =>
    fetchJson<{ values: string[] }>(`${base(server)}/complete`, { method: "POST", json: { ref, argument, context } }),
};
