import { describe, expect, it } from "vitest";
import { requestOrigin } from "./route";

describe("requestOrigin", () => {
  it("is the Host the browser sent, not the address the server listens on", () => {
    const request = new Request("http://localhost:3000/api/mcp-oauth/remote/sign-in", { headers: { host: "127.0.0.1:4123" } });
    expect(requestOrigin(request)).toBe("http://127.0.0.1:4123");
  });

  it("keeps the request's scheme and falls back to its URL without a Host", () => {
    expect(requestOrigin(new Request("https://toolroom.test:8443/x", { headers: { host: "box.local:9000" } }))).toBe("https://box.local:9000");
    expect(requestOrigin(new Request("http://127.0.0.1:3000/x"))).toBe("http://127.0.0.1:3000");
  });
});
