// Browsers keep cookies per host, not per port: two Toolrooms on localhost:3000 and :3001 would
// overwrite each other's session and keep signing each other out. Without auth.url each port has
// its own cookie; with it, every instance behind that one address shares the name, and so the
// session. No "server-only" here: the e2e specs read the same name.

export interface SessionCookie {
  /** better-auth's cookiePrefix: its cookies are `<prefix>.session_token` and so on. */
  prefix: string;
  /** Secure cookies (an https auth.url, a TLS proxy in front); better-auth then adds `__Secure-`. */
  secure: boolean;
  name: string;
}

/** `port` is the one the server listens on (Next sets PORT; 3000 is its default, as `npm start`'s). */
export function sessionCookie(authUrl: string | undefined, port: string | undefined): SessionCookie {
  const prefix = authUrl ? "toolroom" : `toolroom-${port || "3000"}`;
  const secure = authUrl?.startsWith("https://") ?? false;
  return { prefix, secure, name: `${secure ? "__Secure-" : ""}${prefix}.session_token` };
}
