import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";

/** The version `initialize` settles on, as the SDK's server answers it: the client's if supported, else the latest. */
export function negotiatedVersion(requested: unknown): string {
  return typeof requested === "string" && SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
}

/**
 * The MCP-Protocol-Version a session's request is served as. The negotiated version is the
 * authority: a client that negotiated 2025-11-25 and then labels a request with an older version
 * still handles what 2025-11-25 sends (the SSE priming event that makes a stream resumable, which
 * the SDK withholds from older versions). Dates compare as strings.
 */
export function servedVersion(header: string | null | undefined, negotiated: string): string | null {
  if (!header) return null;
  return header < negotiated && SUPPORTED_PROTOCOL_VERSIONS.includes(header) ? negotiated : header;
}
