import { describe, expect, it } from "vitest";
import { sessionCookie } from "./session-cookie";

describe("sessionCookie", () => {
  it("names the cookie per port without auth.url, so two local servers keep their own sessions", () => {
    expect(sessionCookie(undefined, "3000").name).toBe("toolroom-3000.session_token");
    expect(sessionCookie(undefined, "3001").name).toBe("toolroom-3001.session_token");
    expect(sessionCookie(undefined, "3000").name).not.toBe(sessionCookie(undefined, "3001").name);
    expect(sessionCookie(undefined, undefined)).toEqual({ prefix: "toolroom-3000", secure: false, name: "toolroom-3000.session_token" });
  });

  it("shares one name across instances behind auth.url, Secure behind https", () => {
    expect(sessionCookie("https://toolroom.example.com", "3000")).toEqual(sessionCookie("https://toolroom.example.com", "3001"));
    expect(sessionCookie("https://toolroom.example.com", "3000")).toEqual({ prefix: "toolroom", secure: true, name: "__Secure-toolroom.session_token" });
    expect(sessionCookie("http://toolroom.lan:8080", "3000")).toEqual({ prefix: "toolroom", secure: false, name: "toolroom.session_token" });
  });
});
