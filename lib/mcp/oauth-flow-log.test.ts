import { describe, expect, it } from "vitest";
import { maskSecrets, maskUrl, recordingFetch, stepKind, type OAuthFlowStep } from "./oauth-flow-log";

describe("the OAuth flow log", () => {
  it("masks tokens, codes, verifiers and secrets however deep, and keeps the rest", () => {
    expect(maskSecrets({ access_token: "abc", token_type: "bearer", nested: [{ client_secret: "s3", client_id: "id" }] })).toEqual({
      access_token: "•••• (3 chars)",
      token_type: "bearer",
      nested: [{ client_secret: "•••• (2 chars)", client_id: "id" }],
    });
    expect(maskUrl("http://a.test/cb?code=xyz&state=st&scope=s")).toBe(
      "http://a.test/cb?code=%E2%80%A2%E2%80%A2%E2%80%A2%E2%80%A2+%283+chars%29&state=%E2%80%A2%E2%80%A2%E2%80%A2%E2%80%A2+%282+chars%29&scope=s",
    );
    expect(maskUrl("/oauth/callback?code=xyz")).not.toContain("xyz");
  });

  it("names each step: metadata by its well-known path (with the fallbacks), registration, token grants, the MCP request", () => {
    const mcp = "http://s.test/mcp";
    expect(stepKind("GET", "http://s.test/.well-known/oauth-protected-resource/mcp", undefined, mcp)).toBe("protected-resource-metadata");
    expect(stepKind("GET", "http://s.test/.well-known/openid-configuration", undefined, mcp)).toBe("authorization-server-metadata");
    expect(stepKind("POST", "http://s.test/register", { redirect_uris: [] }, mcp)).toBe("registration");
    expect(stepKind("POST", "http://s.test/token", { grant_type: "authorization_code" }, mcp)).toBe("token-exchange");
    expect(stepKind("POST", "http://s.test/token", { grant_type: "refresh_token" }, mcp)).toBe("refresh");
    expect(stepKind("POST", "http://s.test/revoke", { token: "t", token_type_hint: "access_token" }, mcp)).toBe("revocation");
    expect(stepKind("POST", mcp, { method: "tools/list" }, mcp)).toBe("mcp-request");
  });

  it("records a token response masked, a refused MCP request with its challenge, and skips MCP requests that went through", async () => {
    const steps: OAuthFlowStep[] = [];
    const answers: Record<string, Response> = {
      "http://s.test/token": Response.json({ access_token: "secret-token", token_type: "bearer" }),
      "http://s.test/mcp#1": new Response("{}", { status: 401, headers: { "www-authenticate": 'Bearer scope="a"', "content-type": "application/json" } }),
      "http://s.test/mcp#2": Response.json({ result: {} }),
    };
    let mcpCalls = 0;
    const record = recordingFetch({
      serverUrl: "http://s.test/mcp",
      onStep: async (step) => void steps.push(step),
      fetch: async (input) => {
        const url = (input as Request).url;
        return answers[url === "http://s.test/mcp" ? `${url}#${++mcpCalls}` : url] as Response;
      },
    });
    await record("http://s.test/token", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=authorization_code&code=c0de",
    });
    await record("http://s.test/mcp", { method: "POST", body: JSON.stringify({ method: "initialize" }) });
    await record("http://s.test/mcp", { method: "POST", body: JSON.stringify({ method: "tools/list" }) });
    expect(steps.map((s) => [s.kind, s.status])).toEqual([
      ["token-exchange", 200],
      ["mcp-request", 401],
    ]);
    expect(JSON.stringify(steps)).not.toMatch(/secret-token|c0de/);
    expect(steps[1]).toMatchObject({ note: "initialize", wwwAuthenticate: 'Bearer scope="a"' });
  });
});
