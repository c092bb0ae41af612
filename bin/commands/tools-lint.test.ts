import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runToolroom } from "@/lib/testing/cli";

// `toolroom tools --lint` and `--json` against a plugin whose description leaves things out.
let root: string;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-cli-lint-"));
  const pkg = path.join(root, "plugins", "vague");
  fs.mkdirSync(pkg, { recursive: true });
  fs.writeFileSync(
    path.join(pkg, "package.json"),
    JSON.stringify({ name: "vague", version: "1.0.0", type: "module", toolroom: { tools: { vague_tool: "./index.js#vague" } } }),
  );
  fs.writeFileSync(
    path.join(pkg, "index.js"),
    `export const vague = { name: "vague_tool", description: "Does it.", input: { jsonSchema: { type: "object", properties: { target: { type: "string" } }, required: ["target"] } }, execute: () => "ok" };\n`,
  );
  fs.writeFileSync(path.join(root, "toolroom.yaml"), `sourceRoot: .\nplugins: { paths: [${JSON.stringify(pkg)}] }\n`);
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe("toolroom tools --lint", { timeout: 60_000 }, () => {
  it("prints each finding and exits 1 on an error", async () => {
    const r = await runToolroom(["--config", "toolroom.yaml", "tools", "--lint"], root);
    expect(r.stdout).toContain('vague_tool  [vague]  error  required-unexplained: Required argument "target" is explained nowhere');
    expect(r.stdout).toMatch(/tools? checked: 1 error,/);
    expect(r.code).toBe(1);
  });

  it("--json carries each tool's token estimate, the tokenizer named", async () => {
    const r = await runToolroom(["--config", "toolroom.yaml", "tools", "--json"], root);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout) as Record<string, { token_estimate: { native: number; text: number; tokenizer: string } }>;
    expect(json.vague_tool?.token_estimate).toMatchObject({
      native: expect.any(Number),
      text: expect.any(Number),
      tokenizer: expect.stringContaining("o200k_base"),
    });
    expect(json.vague_tool!.token_estimate.native).toBeGreaterThan(json.vague_tool!.token_estimate.text);
  });

  it("a toolroom.yaml in a working folder that is not Toolroom's own is not read unless named (red team of #28)", async () => {
    const r = await runToolroom(["tools", "--json"], root);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).not.toHaveProperty("vague_tool");
    expect(r.stderr).toContain(`${path.join(root, "toolroom.yaml")} was not read`);
    expect(r.stderr).toContain("--config");
  });
});
