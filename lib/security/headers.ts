// Headers on every response. script-src is left alone: Next's own inline scripts and the theme
// script in app/layout.tsx would need nonces, and what matters here is that no other site can
// frame the app (clickjacking an "Approve" button) or sniff a JSON response into a script.
export const CONTENT_SECURITY_POLICY = "frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'";

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy": CONTENT_SECURITY_POLICY,
  "X-Frame-Options": "DENY",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
};
