import { describe, expect, it } from "vitest";
import { parseHost, type HostPort } from "./host";
import { checkOrigin, isStateChanging, originMatchesHost } from "./origin";

const host = (header: string): HostPort => parseHost(header) as HostPort;
const post = (origin: string | null, secFetchSite: string | null = null, hostHeader = "127.0.0.1:3000", method = "POST") =>
  checkOrigin({ method, origin, secFetchSite, host: host(hostHeader) }).ok;

describe("isStateChanging", () => {
  it.each(["POST", "put", "PATCH", "DELETE", "PROPFIND"])("%s changes state", (m) => expect(isStateChanging(m)).toBe(true));
  it.each(["GET", "head", "OPTIONS"])("%s does not", (m) => expect(isStateChanging(m)).toBe(false));
});

describe("originMatchesHost", () => {
  it("compares host and port, with default ports per scheme and case ignored", () => {
    expect(originMatchesHost("http://127.0.0.1:3000", host("127.0.0.1:3000"))).toBe(true);
    expect(originMatchesHost("http://LOCALHOST:3000", host("localhost:3000"))).toBe(true);
    expect(originMatchesHost("http://[::1]:3000", host("[::1]:3000"))).toBe(true);
    expect(originMatchesHost("http://localhost", host("localhost:80"))).toBe(true);
    expect(originMatchesHost("https://toolroom.lan", host("toolroom.lan:443"))).toBe(true);
    expect(originMatchesHost("https://toolroom.lan", host("toolroom.lan"))).toBe(true);
    expect(originMatchesHost("http://localhost:5173", host("localhost:3000"))).toBe(false);
    expect(originMatchesHost("http://127.0.0.1:3000", host("localhost:3000"))).toBe(false);
    expect(originMatchesHost("http://evil.example", host("127.0.0.1:3000"))).toBe(false);
    expect(originMatchesHost("file://", host("127.0.0.1:3000"))).toBe(false);
    expect(originMatchesHost("not a url", host("127.0.0.1:3000"))).toBe(false);
  });
});

describe("checkOrigin", () => {
  it("lets reads through whatever their origin", () => {
    expect(post("http://evil.example", "cross-site", "127.0.0.1:3000", "GET")).toBe(true);
  });

  it("refuses other sites' reads of the API, except the OpenID provider sending the browser back", () => {
    const read = (path: string, site: string) => checkOrigin({ method: "GET", path, origin: null, secFetchSite: site, host: host("127.0.0.1:3000") }).ok;
    expect(read("/api/runs", "cross-site")).toBe(false);
    expect(read("/api/auth/get-session", "same-site")).toBe(false);
    expect(read("/api/auth/callback/oidc", "cross-site")).toBe(true);
    expect(read("/api/runs", "same-origin")).toBe(true);
  });

  it("allows command-line clients (no Origin, no Sec-Fetch-Site)", () => {
    expect(post(null)).toBe(true);
  });

  it("allows the app's own pages", () => {
    expect(post("http://127.0.0.1:3000")).toBe(true);
    expect(post("http://127.0.0.1:3000", "same-origin")).toBe(true);
    expect(post(null, "same-origin")).toBe(true);
    // Referrer-Policy: no-referrer makes browsers send Origin: null on same-origin POSTs.
    expect(post("null", "same-origin")).toBe(true);
    expect(post(null, "none")).toBe(true);
  });

  it("refuses other sites by Origin", () => {
    expect(post("http://evil.example")).toBe(false);
    expect(post("http://localhost:5173")).toBe(false);
    expect(post("null")).toBe(false);
    expect(post("http://evil.example", "none")).toBe(false);
  });

  it("refuses by Sec-Fetch-Site even without Origin", () => {
    for (const site of ["cross-site", "Cross-Site", "same-site", "something-new"]) expect(post(null, site)).toBe(false);
    expect(post("null", "cross-site")).toBe(false);
    expect(post("http://127.0.0.1:3000", "cross-site")).toBe(false);
  });

  it("covers every state-changing method and explains itself in one line", () => {
    for (const method of ["PUT", "PATCH", "DELETE"]) expect(post("http://evil.example", null, "127.0.0.1:3000", method)).toBe(false);
    const verdict = checkOrigin({ method: "POST", origin: "http://evil.example", secFetchSite: "cross-site", host: host("localhost:3000") });
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.reason).toMatch(/^Forbidden: [^\n]+$/);
  });
});
