import "server-only";
import type { Decision, RequestLike } from "@/lib/security/policy";
import { whoIs } from "./who";

/** Pages anyone may open: the sign-in page itself. Assets (a dot in the last segment) and Next's own files are not pages. */
const OPEN_PAGES = new Set(["/sign-in"]);

function isPage(pathname: string): boolean {
  if (pathname.startsWith("/api/") || pathname.startsWith("/_next/") || OPEN_PAGES.has(pathname)) return false;
  return !(pathname.split("/").pop() ?? "").includes(".");
}

/**
 * A redirect to /sign-in?next=… for a page requested without a session (or API token); null when
 * the request may go on. The person's role is the page's concern: every page may be read by a viewer.
 */
export async function signInRedirect(request: RequestLike & { headers: Headers }): Promise<Decision | null> {
  const url = new URL(request.url, "http://toolroom.invalid");
  if (!isPage(url.pathname)) return null;
  if (await whoIs(request.headers)) return null;
  const next = `${url.pathname}${url.search}`;
  return { action: "redirect", location: next === "/" ? "/sign-in" : `/sign-in?next=${encodeURIComponent(next)}`, setCookie: "" };
}
