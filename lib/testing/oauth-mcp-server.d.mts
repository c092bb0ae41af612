export interface OAuthMcpServer {
  /** The MCP endpoint (streamable HTTP), behind a bearer token. */
  url: string;
  provider: {
    revoked: string[];
    clients: Map<string, unknown>;
    authorizations: { clientId: string; scopes: string[] }[];
    expireAccessTokens(): void;
  };
  close(): Promise<void>;
}
export function startOAuthMcpServer(options?: {
  port?: number;
  preRegistered?: { client_id: string; client_secret?: string };
  stepUpScope?: string;
}): Promise<OAuthMcpServer>;
