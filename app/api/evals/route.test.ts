import { describe, expect, it } from "vitest";
import { POST } from "./route";

const post = (body: unknown) => POST(new Request("http://localhost/api/evals", { method: "POST", body: JSON.stringify(body) }));

describe("POST /api/evals", () => {
  it("refuses a bad protocol naming the field and the values it takes", async () => {
    for (const protocols of [["bogus"], "bogus", ["json", 3]]) {
      const response = await post({ suite: "s.eval.yaml", protocols });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        code: "invalid_request",
        error: `Invalid request at protocols: expected "all" or a list of text protocols from action, json, hermes, xml, llama, mistral (got ${JSON.stringify(protocols)})`,
      });
    }
  });

  it("names the allowed modes too", async () => {
    const response = await post({ suite: "s.eval.yaml", modes: ["both"] });
    expect(((await response.json()) as { error: string }).error).toBe('Invalid request at modes.0: Invalid option: expected one of "native"|"text"');
  });
});
