import { describe, expect, it } from "vitest";
import { collectSecrets, maskSecrets, maskUrl } from "./mask";
import { settingRows } from "./rows";

describe("URL credentials", () => {
  it("masks a userinfo password, a lone userinfo token and secret-looking query values", () => {
    expect(maskUrl("http://user:hunter2pass@127.0.0.1:8000/v1")).toBe("http://user:••••ss@127.0.0.1:8000/v1");
    expect(maskUrl("https://ghp_tokenonly12345@host/x")).toBe("https://••••45@host/x");
    expect(maskUrl("http://h/v1?api-key=qk-0123456789&model=m&access_token=tok-abcdefghij#frag")).toBe(
      "http://h/v1?api-key=••••89&model=m&access_token=••••ij#frag",
    );
    expect(maskUrl("http://h/v1?sig=abcdef0123456789&foo=bar")).toBe("http://h/v1?sig=••••89&foo=bar");
  });

  it("leaves URLs without credentials exactly as written", () => {
    for (const url of ["http://127.0.0.1:11434/v1", "https://api.example.com/v1?model=gpt&mode=fast", "http://h/a@b", "file:./data/toolroom.db"])
      expect(maskUrl(url)).toBe(url);
  });

  it("masks baseURL and MCP server URLs in the settings shown on /settings and by toolroom settings", () => {
    const settings = {
      llms: { local: { provider: "openai-compatible", baseURL: "http://me:pa55word-secret@10.0.0.2/v1?api-key=qk-0123456789" } },
      mcpServers: { remote: { url: "https://mcp.example/mcp?token=mcp-tok-987654321" } },
      sourceRoot: ".",
    };
    const shown = JSON.stringify(maskSecrets(settings));
    expect(shown).not.toContain("pa55word-secret");
    expect(shown).not.toContain("qk-0123456789");
    expect(shown).not.toContain("mcp-tok-987654321");
    expect(shown).toContain("http://me:••••et@10.0.0.2/v1?api-key=••••89");
    const rows = settingRows({ settings: settings as never, origin: {}, sources: [], notices: [] });
    expect(JSON.stringify(rows)).not.toContain("pa55word-secret");
  });

  it("masks an MCP server's OAuth client secret and keeps its client ID readable", () => {
    const shown = JSON.stringify(
      maskSecrets({ mcpServers: { remote: { url: "https://mcp.example/mcp", oauth: { clientId: "toolroom-app", clientSecret: "cs-0123456789" } } } }),
    );
    expect(shown).not.toContain("cs-0123456789");
    expect(shown).toContain("toolroom-app");
  });

  it("collects URL credentials as secrets, so text that echoes them is scrubbed", () => {
    const secrets = collectSecrets({ llms: { local: { baseURL: "http://me:pa55word-secret@10.0.0.2/v1?api-key=qk-0123456789&model=m" } } });
    expect(secrets).toEqual(expect.arrayContaining(["pa55word-secret", "qk-0123456789"]));
    expect(secrets).not.toContain("m");
  });
});
