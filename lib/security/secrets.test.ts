import { describe, expect, it } from "vitest";
import { settingsSchema } from "@/lib/settings/schema";
import { knownSecrets, scrubProviderError, scrubText, scrubValue } from "./secrets";

const settings = settingsSchema.parse({
  llms: { gpt: { provider: "openai", apiKey: "sk-settings-key-0123456789", headers: { "X-Org": "org-header-value" } } },
  mcpServers: { gh: { command: "gh-mcp", env: { GITHUB_TOKEN: "ghp_mcpenvvalue123" } } },
  server: { token: "server-token-abcdef" },
});

describe("secret scrubbing", () => {
  it("knows settings secrets, headers, MCP env values and credential env variables", () => {
    const secrets = knownSecrets(settings, { OPENAI_API_KEY: "env-openai-key-987654", PATH: "/usr/bin", SHORT_KEY: "abc" });
    expect(secrets).toEqual(
      expect.arrayContaining(["sk-settings-key-0123456789", "org-header-value", "ghp_mcpenvvalue123", "server-token-abcdef", "env-openai-key-987654"]),
    );
    expect(secrets).not.toContain("/usr/bin");
    expect(secrets).not.toContain("abc");
  });

  it("masks known secrets and credential-shaped strings in provider errors", () => {
    const message =
      'Incorrect API key provided: sk-settings-key-0123456789. Request had "Authorization: Bearer sk-proj-unknownkey1234567890" and x-api-key: abcdefghijkl';
    const scrubbed = scrubProviderError(message, settings);
    expect(scrubbed).not.toContain("sk-settings-key-0123456789");
    expect(scrubbed).not.toContain("unknownkey1234567890");
    expect(scrubbed).not.toContain("abcdefghijkl");
    expect(scrubbed).toContain("Incorrect API key provided: ••••89");
  });

  it("masks credentials inside URLs a provider error echoes, known or not", () => {
    const withUrl = settingsSchema.parse({
      llms: { local: { provider: "openai-compatible", baseURL: "http://me:pa55word-secret@10.0.0.2/v1?api-key=qk-0123456789" } },
    });
    const message =
      "Cannot connect to API: fetch failed for http://me:pa55word-secret@10.0.0.2/v1/chat/completions?api-key=qk-0123456789 (and pa55word-secret alone); retry http://other:unknown-pass@h/?token=tok-unseen-1234";
    const scrubbed = scrubProviderError(message, withUrl);
    for (const secret of ["pa55word-secret", "qk-0123456789", "unknown-pass", "tok-unseen-1234"]) expect(scrubbed).not.toContain(secret);
    expect(scrubbed).toContain("http://me:••••et@10.0.0.2/v1/chat/completions?api-key=••••89");
    expect(scrubbed).toContain("http://other:••••ss@h/?token=••••34");
  });

  it("leaves ordinary text alone", () => {
    expect(scrubText("model gpt-4o-mini not found (404)", [])).toBe("model gpt-4o-mini not found (404)");
  });
});

describe("scrubValue", () => {
  it("masks a secret in every string of a value, even one that JSON text would hold across an escape", () => {
    const value = { note: "the root,\none per line", nested: [{ key: "none" }], n: 3, ok: true };
    const scrubbed = scrubValue(value, ["none"]);
    // The note holds no "none" (a newline, then "one"), though its JSON text does: masking that text broke it.
    expect(scrubbed).toEqual({ note: value.note, nested: [{ key: "••••" }], n: 3, ok: true });
  });
});
