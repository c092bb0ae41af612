// Every request (pages, API routes, /api/mcp, static files) passes this gate: host check against
// DNS rebinding, access token off loopback, cross-site refusal for changes, security headers.
// No CORS headers are ever added, so other sites cannot read responses. The rules live in
// lib/security; this file only turns their answer into a response.
import { NextResponse, type NextRequest } from "next/server";
import { getSettings } from "@/lib/settings";
import { securityConfig, type SecurityConfig } from "@/lib/security/config";
import { SECURITY_HEADERS } from "@/lib/security/headers";
import { undecodablePath, withoutTrailingSlash } from "@/lib/security/path";
import { decide } from "@/lib/security/policy";
import { signInRedirect } from "@/lib/server/auth/page-gate";

// Settings are read once per process anyway; the proxy runs in the Node.js runtime (Next 16's default).
let security: SecurityConfig | undefined;

export async function proxy(request: NextRequest): Promise<NextResponse> {
  security ??= securityConfig(getSettings());
  const gate = decide(request, security);
  // Pages read the store as they render, so a page without a person is sent to sign in first;
  // API routes answer their own 401 (lib/server/auth/admit.ts).
  const decision = gate.action === "pass" && security.authRequired ? ((await signInRedirect(request)) ?? gate) : gate;
  let response: NextResponse;
  const badPath = decision.action === "pass" ? undecodablePath(request.nextUrl.pathname) : null;
  if (badPath) {
    response = request.nextUrl.pathname.startsWith("/api/")
      ? NextResponse.json({ error: badPath, code: "bad_path" }, { status: 400, headers: { "Cache-Control": "no-store" } })
      : new NextResponse(`${badPath}\n`, { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  } else if (decision.action === "pass" && withoutTrailingSlash(request.nextUrl.pathname) !== null) {
    // next.config.ts skips Next's own trailing-slash redirect so that this one carries the headers.
    const location = new URL(`${withoutTrailingSlash(request.nextUrl.pathname)}${request.nextUrl.search}`, request.url).toString();
    response = new NextResponse(null, { status: 308, headers: { Location: location } });
  } else if (decision.action === "pass") {
    response = NextResponse.next();
  } else if (decision.action === "redirect") {
    // Next's proxy adapter needs an absolute Location; it makes a same-origin one relative again.
    const location = new URL(decision.location, request.url).toString();
    response = new NextResponse(null, { status: 303, headers: { Location: location, "Cache-Control": "no-store" } });
    if (decision.setCookie) response.headers.set("Set-Cookie", decision.setCookie);
  } else {
    response = new NextResponse(`${decision.message}\n`, {
      status: decision.status,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.headers.set(name, value);
  return response;
}
