import { describe, expect, it } from "vitest";
import { scrubText } from "@/lib/security/secrets";
import { RawCapture } from "./raw-capture";

describe("RawCapture", () => {
  it("masks a secret inside the request's strings without breaking the JSON around them", () => {
    // A short key ("none", as local OpenAI-compatible servers take) also occurs inside escapes: in
    // JSON text, "…root,\none per line" holds it across the backslash of \n.
    const raw = new RawCapture("http://127.0.0.1:1/v1");
    raw.setRequest([{ role: "system", content: "Paths are relative to the source root,\none per line; key none" }], undefined);
    const scrub = (text: string) => scrubText(text, ["none"]);
    const json = raw.toJSONString(scrub);
    const parsed = JSON.parse(json) as { request: { system: string } };
    expect(parsed.request.system).not.toContain("none");
    expect(parsed.request.system).toContain("source root,\n");
    expect(raw.toJSON(scrub).request).toEqual(parsed.request);
  });
});
