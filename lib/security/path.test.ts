import { describe, expect, it } from "vitest";
import { undecodablePath, withoutTrailingSlash } from "./path";

describe("paths the proxy answers itself", () => {
  it("names an undecodable path and passes decodable ones", () => {
    expect(undecodablePath("/api/chats/%ff")).toBe("Bad Request: the address /api/chats/%ff is not valid percent-encoded UTF-8.");
    expect(undecodablePath(`/chat/%ff${"a".repeat(300)}`)).toMatch(/^Bad Request: the address \/chat\/%ffa{111}… is not/);
    expect(undecodablePath("/api/chats/%C3%A9")).toBeNull();
    expect(undecodablePath("/tools")).toBeNull();
  });

  it("redirects a trailing slash to a same-origin path, never to //host", () => {
    expect(withoutTrailingSlash("/tools/")).toBe("/tools");
    expect(withoutTrailingSlash("/api/tools//")).toBe("/api/tools");
    expect(withoutTrailingSlash("//evil.example/")).toBe("/evil.example");
    expect(withoutTrailingSlash("//")).toBe("/");
    expect(withoutTrailingSlash("/")).toBeNull();
    expect(withoutTrailingSlash("/tools")).toBeNull();
  });
});
