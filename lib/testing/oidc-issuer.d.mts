export interface OidcIssuer {
  /** The issuer URL: its discovery document is at `<issuer>/.well-known/openid-configuration`. */
  issuer: string;
  /** Login name on the dev login form → the claims the provider asserts for it (besides `sub`). */
  accounts: Map<string, { email: string; email_verified: boolean; name?: string; role?: string }>;
  close(): Promise<void>;
}
export function startOidcIssuer(options: { clientId: string; clientSecret: string; redirectUri: string }): Promise<OidcIssuer>;
