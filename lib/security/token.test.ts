import { describe, expect, it } from "vitest";
import { parseHost, type HostPort } from "./host";
import { bearerToken, readCookie, tokenCookie, tokenCookieName, tokensEqual, withoutTokenParam } from "./token";

const host = (header: string): HostPort => parseHost(header) as HostPort;

describe("token helpers", () => {
  it("compares tokens exactly", () => {
    expect(tokensEqual("abc123", "abc123")).toBe(true);
    expect(tokensEqual("abc12", "abc123")).toBe(false);
    expect(tokensEqual("abc1234", "abc123")).toBe(false);
    expect(tokensEqual("abc124", "abc123")).toBe(false);
    expect(tokensEqual("", "")).toBe(false);
  });

  it("reads bearer tokens", () => {
    expect(bearerToken("Bearer abc")).toBe("abc");
    expect(bearerToken("bearer   abc ")).toBe("abc");
    expect(bearerToken("Basic abc")).toBeNull();
    expect(bearerToken("Bearer a b")).toBeNull();
    expect(bearerToken(null)).toBeNull();
  });

  it("names the cookie per port and reads it back", () => {
    expect(tokenCookieName(host("localhost:3000"))).toBe("toolroom-token-3000");
    expect(tokenCookieName(host("localhost"))).toBe("toolroom-token-80");
    expect(readCookie("a=1; toolroom-token-3000=x%3By; b=2", "toolroom-token-3000")).toBe("x;y");
    expect(readCookie("toolroom-token-4000=x", "toolroom-token-3000")).toBeNull();
    expect(readCookie(null, "toolroom-token-3000")).toBeNull();
  });

  it("sets an HttpOnly, SameSite=Strict cookie, Secure only over https", () => {
    expect(tokenCookie(host("127.0.0.1:3000"), "t;k", false)).toBe("toolroom-token-3000=t%3Bk; Path=/; HttpOnly; SameSite=Strict");
    expect(tokenCookie(host("toolroom.lan"), "t", true)).toMatch(/; Secure$/);
  });

  it("drops only the token parameter", () => {
    expect(withoutTokenParam(new URL("http://x/tools?token=abc"))).toBe("/tools");
    expect(withoutTokenParam(new URL("http://x/?a=1&token=abc&b=2"))).toBe("/?a=1&b=2");
  });
});
