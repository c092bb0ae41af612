import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { settingsSchema } from "@/lib/settings/schema";

type SettingsInput = z.input<typeof settingsSchema>;
import { securityConfig, startupProblem, type SecurityConfig } from "./config";
import { decide, type RequestLike } from "./policy";

const settings = (server: SettingsInput["server"] = {}, auth: SettingsInput["auth"] = {}) => settingsSchema.parse({ server, auth });
const request = (method: string, url: string, headers: Record<string, string>): RequestLike => {
  const h = new Headers(headers);
  return { method, url, headers: { get: (name) => h.get(name) } };
};
const loopback: SecurityConfig = securityConfig(settings(), {});
const guarded: SecurityConfig = securityConfig(settings({ host: "0.0.0.0", token: "s3cret-token", requireToken: true }), {});

describe("securityConfig", () => {
  it("takes the bind address from $HOST first, then settings", () => {
    expect(securityConfig(settings(), {}).bindHost).toBe("127.0.0.1");
    expect(securityConfig(settings(), { HOST: "0.0.0.0" })).toMatchObject({ bindHost: "0.0.0.0", loopback: false, authRequired: true, tokenRequired: false });
    expect(securityConfig(settings({ host: "::1" }), {})).toMatchObject({ loopback: true, authRequired: false, tokenRequired: false });
  });

  it("requires sign-in off loopback and on PostgreSQL unless switched off, which start refuses off loopback", () => {
    const off = securityConfig(settings({ host: "0.0.0.0" }, { required: false }), {});
    expect(off.authRequired).toBe(false);
    expect(startupProblem(off)).toMatch(/auth\.required is false/);
    expect(startupProblem(guarded)).toBeNull();
    expect(securityConfig(settings(), { DATABASE_URL: "postgresql://root@127.0.0.1:5432/test" }).authRequired).toBe(true);
    expect(securityConfig(settings({}, { required: true }), {}).authRequired).toBe(true);
    expect(startupProblem(securityConfig(settings({}, { required: false }), { DATABASE_URL: "postgresql://root@127.0.0.1/test" }))).toBeNull();
    expect(securityConfig(settings({ requireToken: true }), {}).tokenRequired).toBe(true);
  });

  it("allows a concrete non-loopback bind address as a host, not a wildcard one", () => {
    expect(securityConfig(settings({ host: "192.168.1.5", allowedHosts: ["toolroom.lan"] }), {}).allowedHosts).toEqual(["toolroom.lan", "192.168.1.5"]);
    expect(guarded.allowedHosts).toEqual([]);
  });
});

describe("decide on loopback", () => {
  it("passes local pages and same-origin changes", () => {
    expect(decide(request("GET", "http://127.0.0.1:3000/tools", { host: "127.0.0.1:3000" }), loopback)).toEqual({ action: "pass" });
    expect(decide(request("POST", "/api/chat", { host: "localhost:3000", origin: "http://localhost:3000" }), loopback).action).toBe("pass");
    expect(decide(request("POST", "/api/mcp", { host: "[::1]:3000" }), loopback).action).toBe("pass");
  });

  it("refuses foreign hosts before anything else", () => {
    expect(decide(request("GET", "/tools", { host: "evil.example" }), loopback)).toMatchObject({ action: "deny", status: 403 });
  });

  it("refuses cross-site changes", () => {
    expect(decide(request("POST", "/api/chat", { host: "127.0.0.1:3000", origin: "http://evil.example" }), loopback)).toMatchObject({
      action: "deny",
      status: 403,
    });
    expect(decide(request("POST", "/api/chat", { host: "127.0.0.1:3000", "sec-fetch-site": "cross-site" }), loopback)).toMatchObject({ status: 403 });
  });

  it("refuses another site's browser reads of the API, not its links to pages", () => {
    const read = (url: string, site: string) => decide(request("GET", url, { host: "127.0.0.1:3000", "sec-fetch-site": site }), loopback);
    expect(read("/api/runs?fresh=1", "cross-site")).toMatchObject({
      action: "deny",
      status: 403,
      message: expect.stringMatching(/read of \/api\/runs from another site/),
    });
    expect(read("/api/tools", "same-site")).toMatchObject({ action: "deny", status: 403 });
    expect(read("/api/tools", "same-origin")).toEqual({ action: "pass" });
    expect(read("/runs", "cross-site")).toEqual({ action: "pass" });
    expect(decide(request("GET", "/api/tools", { host: "127.0.0.1:3000" }), loopback)).toEqual({ action: "pass" });
  });

  it("ignores ?token= when no token is in use", () => {
    expect(decide(request("GET", "/?token=x", { host: "127.0.0.1:3000" }), loopback).action).toBe("pass");
  });
});

describe("decide with a token", () => {
  const host = { host: "127.0.0.1:3000" };

  it("answers 401 without the token, or with a wrong one", () => {
    expect(decide(request("GET", "/tools", host), guarded)).toMatchObject({ action: "deny", status: 401 });
    expect(decide(request("GET", "/api/tools", { ...host, authorization: "Bearer nope" }), guarded)).toMatchObject({ status: 401 });
    expect(decide(request("GET", "/api/tools", { ...host, cookie: "toolroom-token-4000=s3cret-token" }), guarded)).toMatchObject({ status: 401 });
    expect(decide(request("GET", "/?token=nope", host), guarded)).toMatchObject({ status: 401 });
  });

  it("accepts a bearer token or the cookie", () => {
    expect(decide(request("GET", "/api/tools", { ...host, authorization: "Bearer s3cret-token" }), guarded).action).toBe("pass");
    expect(decide(request("GET", "/tools", { ...host, cookie: "toolroom-token-3000=s3cret-token" }), guarded).action).toBe("pass");
  });

  it("trades ?token= for a cookie and a redirect to the same URL without it", () => {
    expect(decide(request("GET", "http://127.0.0.1:3000/tools?token=s3cret-token&x=1", host), guarded)).toEqual({
      action: "redirect",
      location: "/tools?x=1",
      setCookie: "toolroom-token-3000=s3cret-token; Path=/; HttpOnly; SameSite=Strict",
    });
  });

  it("still refuses foreign hosts and cross-site changes with a valid token", () => {
    expect(decide(request("GET", "/tools", { host: "evil.example", authorization: "Bearer s3cret-token" }), guarded)).toMatchObject({ status: 403 });
    expect(decide(request("POST", "/api/chat", { ...host, cookie: "toolroom-token-3000=s3cret-token", origin: "http://evil.example" }), guarded)).toMatchObject(
      { status: 403 },
    );
  });

  it("fails closed when a token is required but none is configured", () => {
    const none = securityConfig(settings({ host: "0.0.0.0", requireToken: true }), {});
    expect(decide(request("GET", "/tools", { ...host, authorization: "Bearer anything" }), none)).toMatchObject({ status: 401 });
  });
});
