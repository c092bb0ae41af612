import { randomBytes } from "node:crypto";
import type { OAuthClientProvider, OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { readMcpOAuth, writeMcpOAuth, type McpOAuthState } from "@/lib/db/mcp-oauth";
import { FLOW_STEPS_KEPT, recordingFetch, type OAuthFlowStep } from "./oauth-flow-log";

/** The redirect URL a connection names and never uses (see `redirectUrl`). */
const CONNECTION_REDIRECT = "http://127.0.0.1/oauth/callback";

/** `mcpServers.<name>.oauth`: a client registered beforehand (`clientId`) or a metadata document URL. */
export interface OAuthSettings {
  clientId?: string;
  clientSecret?: string;
  scopes?: string[];
  clientMetadataUrl?: string;
}

export interface ProviderOptions {
  server: string;
  serverUrl: string;
  oauth?: OAuthSettings;
  /** Where the authorization server sends the browser back (the CLI's loopback listener, the app's callback route). */
  redirectUrl?: string;
  /** Sends the person to the authorization page; absent, a flow that needs a person fails with how to sign in. */
  openAuthorization?: (url: URL) => void | Promise<void>;
  /** Step-up: the stored refresh token is not offered, so the SDK authorizes anew instead of refreshing. */
  reauthorize?: boolean;
}

/**
 * The MCP SDK's `OAuthClientProvider`, storing per server in the database: the registered client,
 * the tokens, the PKCE verifier and what discovery found. The SDK does the protocol (discovery with
 * its fallbacks, registration, PKCE S256, scopes and step-up, refresh, the `resource` parameter).
 */
export class StoredOAuthProvider implements OAuthClientProvider {
  private cached: McpOAuthState | null | undefined;
  private expectedState: string | undefined;

  constructor(private readonly options: ProviderOptions) {}

  /** Where the authorization server fetches this client's metadata (SEP-991), when one is hosted. */
  get clientMetadataUrl(): string | undefined {
    return this.options.oauth?.clientMetadataUrl;
  }

  /**
   * A connection (no person at hand: the registry, `toolroom call`) still names a redirect URL: the
   * SDK takes a provider without one for a client-credentials client, and then never refreshes an
   * expired token. A connection never sends anyone there: with no stored client it stops before
   * registering (clientInformation), and a new authorization ends in redirectToAuthorization's
   * "sign in" error.
   */
  get redirectUrl(): string | undefined {
    return this.options.redirectUrl ?? (this.options.openAuthorization ? undefined : CONNECTION_REDIRECT);
  }

  get clientMetadata(): OAuthClientMetadata {
    const scopes = this.options.oauth?.scopes;
    return {
      client_name: "Toolroom",
      redirect_uris: this.options.redirectUrl ? [this.options.redirectUrl] : [],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: this.options.oauth?.clientSecret ? "client_secret_basic" : "none",
      ...(scopes?.length ? { scope: scopes.join(" ") } : {}),
    };
  }

  state(): string {
    this.expectedState = randomBytes(16).toString("base64url");
    return this.expectedState;
  }

  /** Whether `state` from the callback is the one this flow sent (a forged callback is refused). */
  checkState(state: string | null): boolean {
    return this.expectedState !== undefined && state === this.expectedState;
  }

  private async stored(): Promise<McpOAuthState | null> {
    // No database (or not migrated yet): a server that needs no sign-in must still work.
    if (this.cached === undefined) this.cached = await readMcpOAuth(this.options.server, this.options.serverUrl).catch(() => null);
    return this.cached;
  }

  private async save(patch: Partial<McpOAuthState>): Promise<void> {
    await writeMcpOAuth(this.options.server, this.options.serverUrl, patch);
    this.cached = { ...(this.cached ?? {}), ...patch };
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const pre = this.options.oauth;
    if (pre?.clientId) return { client_id: pre.clientId, ...(pre.clientSecret ? { client_secret: pre.clientSecret } : {}) };
    const info = (await this.stored())?.clientInfo as (OAuthClientInformationMixed & { redirect_uris?: string[] }) | undefined;
    // A connection registers no client: only a sign-in does, with a redirect URL a person returns to.
    if (!info && !this.options.redirectUrl && !this.options.openAuthorization) throw this.signInNeeded();
    // A registration for another redirect URI (the CLI's listener gets a new port each time) is of no use.
    if (info?.redirect_uris && this.options.redirectUrl && !info.redirect_uris.includes(this.options.redirectUrl)) return undefined;
    return info;
  }

  async saveClientInformation(clientInformation: OAuthClientInformationMixed): Promise<void> {
    if (!this.options.oauth?.clientId) await this.save({ clientInfo: clientInformation });
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    const tokens = (await this.stored())?.tokens as OAuthTokens | undefined;
    if (!tokens || !this.options.reauthorize) return tokens;
    const { refresh_token: _kept, ...rest } = tokens;
    return rest;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    await this.save({ tokens });
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    if (!this.options.openAuthorization) throw this.signInNeeded();
    // Step-up asks for what the server wants now and keeps what was granted before (the union).
    const granted = ((await this.stored())?.tokens as OAuthTokens | undefined)?.scope;
    if (granted) {
      const scopes = new Set([...granted.split(" "), ...(authorizationUrl.searchParams.get("scope") ?? "").split(" ")].filter(Boolean));
      authorizationUrl.searchParams.set("scope", [...scopes].join(" "));
    }
    await this.options.openAuthorization(authorizationUrl);
  }

  private signInNeeded(): Error {
    return new Error(
      `the MCP server "${this.options.server}" needs you to sign in: run \`toolroom mcp login ${this.options.server}\` or use Sign in on the Sources view`,
    );
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    await this.save({ codeVerifier });
  }

  async codeVerifier(): Promise<string> {
    const verifier = (await this.stored())?.codeVerifier;
    if (!verifier) throw new Error("no authorization is under way for this server (start the sign-in again)");
    return verifier;
  }

  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> {
    const all = scope === "all";
    await this.save({
      ...(all || scope === "client" ? { clientInfo: undefined } : {}),
      ...(all || scope === "tokens" ? { tokens: undefined } : {}),
      ...(all || scope === "verifier" ? { codeVerifier: undefined } : {}),
      ...(all || scope === "discovery" ? { discovery: undefined } : {}),
    });
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    await this.save({ discovery: state });
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    return (await this.stored())?.discovery as OAuthDiscoveryState | undefined;
  }

  /**
   * A fetch that records each request of the flow for the debug view, stored as it comes.
   * `fresh`: a new flow starts (sign-in) and the last one's steps go; otherwise the steps continue
   * the last flow's (its callback, a refresh, a sign-out).
   */
  recordingFetch(options: { fresh: boolean }): (input: string | URL | Request, init?: RequestInit) => Promise<Response> {
    let started = !options.fresh;
    const record = recordingFetch({ serverUrl: this.options.serverUrl, onStep: (step) => this.noteStep(step) });
    return async (input, init) => {
      if (!started) {
        started = true;
        await this.save({ flowLog: [] }).catch(() => {});
      }
      return record(input, init);
    };
  }

  /** Adds a step to the stored log (bounded): a request, or the browser's part (sent to the authorization page, the callback). */
  async noteStep(step: Omit<OAuthFlowStep, "at"> & { at?: string }): Promise<void> {
    const steps = [...(((await this.stored())?.flowLog as OAuthFlowStep[] | undefined) ?? []), { at: new Date().toISOString(), ...step }];
    await this.save({ flowLog: steps.slice(-FLOW_STEPS_KEPT) });
  }
}
