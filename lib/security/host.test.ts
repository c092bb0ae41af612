import { describe, expect, it } from "vitest";
import { checkHost, isLoopbackBind, isWildcardBind, parseHost } from "./host";

describe("parseHost", () => {
  it.each([
    ["localhost", { hostname: "localhost", port: "" }],
    ["LOCALHOST:3000", { hostname: "localhost", port: "3000" }],
    ["localhost.:3000", { hostname: "localhost", port: "3000" }],
    ["127.0.0.1:8080", { hostname: "127.0.0.1", port: "8080" }],
    ["[::1]:3000", { hostname: "::1", port: "3000" }],
    ["[::1]", { hostname: "::1", port: "" }],
    [" Example.COM ", { hostname: "example.com", port: "" }],
  ])("%s", (header, expected) => expect(parseHost(header)).toEqual(expected));

  it.each([
    "",
    "::1",
    "::1:3000",
    "[::1",
    "[::1]x",
    "[evil]:3",
    "localhost:",
    "localhost:abc",
    "localhost:70000",
    "a b",
    "user@localhost",
    "local/host",
    "..",
    "localhost..",
    "[]:80",
  ])("refuses %j", (header) => expect(parseHost(header)).toBeNull());
});

describe("checkHost", () => {
  it.each(["localhost", "localhost:3000", "LocalHost:1", "localhost.", "127.0.0.1", "127.0.0.1:3000", "[::1]:3000", "[::1]"])(
    "allows loopback %s on any port",
    (header) => {
      expect(checkHost(header, []).ok).toBe(true);
    },
  );

  it.each(["evil.example", "evil.example:3000", "localhost.evil.example", "127.0.0.1.nip.io", "127.0.0.2", "0.0.0.0:3000", "[::2]:3000", "sub.localhost"])(
    "refuses %s",
    (header) => {
      const verdict = checkHost(header, []);
      expect(verdict.ok).toBe(false);
      if (!verdict.ok) expect(verdict.reason).toMatch(/server\.allowedHosts/);
    },
  );

  it("refuses a missing or malformed Host with a one-line reason", () => {
    for (const header of [null, "", "a:b:c"]) {
      const verdict = checkHost(header, []);
      expect(verdict.ok).toBe(false);
      if (!verdict.ok) expect(verdict.reason).not.toContain("\n");
    }
  });

  it("honours allowedHosts: any port, a fixed port, case, trailing dots, subdomain entries", () => {
    expect(checkHost("Toolroom.LAN:3000", ["toolroom.lan"]).ok).toBe(true);
    expect(checkHost("toolroom.lan.", ["toolroom.lan"]).ok).toBe(true);
    expect(checkHost("toolroom.lan:3000", ["toolroom.lan:3000"]).ok).toBe(true);
    expect(checkHost("toolroom.lan:4000", ["toolroom.lan:3000"]).ok).toBe(false);
    expect(checkHost("toolroom.lan", ["toolroom.lan:3000"]).ok).toBe(false);
    expect(checkHost("evil-toolroom.lan", ["toolroom.lan"]).ok).toBe(false);
    expect(checkHost("a.dev.example", [".dev.example"]).ok).toBe(true);
    expect(checkHost("dev.example", [".dev.example"]).ok).toBe(true);
    expect(checkHost("xdev.example", [".dev.example"]).ok).toBe(false);
    expect(checkHost("192.168.1.5:3000", ["192.168.1.5"]).ok).toBe(true);
    expect(checkHost("[fe80::1]:3000", ["[fe80::1]"]).ok).toBe(true);
    expect(checkHost("evil.example", ["not a host", ""]).ok).toBe(false);
  });
});

describe("bind addresses", () => {
  it.each(["127.0.0.1", "127.1.2.3", "localhost", "LOCALHOST", "::1", "[::1]"])("%s is loopback", (host) => expect(isLoopbackBind(host)).toBe(true));
  it.each(["0.0.0.0", "::", "192.168.1.5", "127.0.0.256", "127.0.0", "example.com", "localhost.example"])("%s is not loopback", (host) =>
    expect(isLoopbackBind(host)).toBe(false),
  );
  it("knows wildcard binds", () => {
    expect(isWildcardBind("0.0.0.0")).toBe(true);
    expect(isWildcardBind("[::]")).toBe(true);
    expect(isWildcardBind("192.168.1.5")).toBe(false);
  });
});
