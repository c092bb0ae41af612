export interface OAuthMcpServer {
  /** The MCP endpoint (streamable HTTP), behind a bearer token. */
  url: string;
  provider: { revoked: string[]; clients: Map<string, unknown>; expireAccessTokens(): void };
  close(): Promise<void>;
}
export function startOAuthMcpServer(options?: { port?: number }): Promise<OAuthMcpServer>;
