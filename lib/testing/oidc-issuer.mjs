// A real OpenID provider on loopback (oidc-provider, in memory): discovery, JWKS, authorization
// with its development login and consent forms, token and userinfo endpoints, PKCE required. Each
// login name on its form is an account whose claims the test sets in `accounts`. Dev keys and dev
// interactions: for tests only (it says so on the console).
import http from "node:http";
import Provider from "oidc-provider";

export async function startOidcIssuer({ clientId, clientSecret, redirectUri }) {
  const server = http.createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${server.address().port}`;
  const accounts = new Map();
  const provider = new Provider(issuer, {
    clients: [
      { client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri], grant_types: ["authorization_code"], response_types: ["code"] },
    ],
    // `role` is released too, so a test can show that Toolroom never takes a role from the provider.
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "role"] },
    findAccount: (_ctx, sub) => {
      const claims = accounts.get(sub);
      return claims ? { accountId: sub, claims: async () => ({ sub, ...claims }) } : undefined;
    },
    pkce: { required: () => true },
    cookies: { keys: ["oidc-issuer-test-cookie-key"] },
  });
  server.on("request", provider.callback());
  return {
    issuer,
    accounts,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
