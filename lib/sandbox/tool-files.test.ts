import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, isFileAccessError, pathArgument } from "toolroom-plugin-kit";
import { invoke } from "@/lib/tools/invoke";
import { inputJsonSchema } from "@/lib/tools/schema";
import { testContext } from "@/lib/testing/context";
import { hostilePaths, makeHostileTree, MARKER } from "@/lib/testing/hostile-tree";
import { toolFiles } from "./tool-files";

// Plugin tools get the built-ins' sandbox as ctx.files: the same corpus must be refused.
const tree = makeHostileTree();
const files = toolFiles(tree.root);

afterAll(() => {
  fs.rmSync(tree.tmp, { recursive: true, force: true });
});

describe("ctx.files", () => {
  it.each(hostilePaths(tree).map((p) => [JSON.stringify(p), p]))("%s is refused by read and filter", async (_label, p) => {
    const error = await files.read(p).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isFileAccessError(error), `read(${JSON.stringify(p)})`).toBe(true);
    expect((error as Error).message).not.toMatch(/^Error:/);
    expect((error as Error).message).not.toContain(MARKER);
    expect(files.filter([p])).toEqual([]);
  });

  it("resolve refuses escapes and ignored paths with the built-ins' sentences", () => {
    expect(() => files.resolve("../outside/secret.txt")).toThrow("path escapes the source root: ../outside/secret.txt");
    expect(() => files.resolve("link-file")).toThrow("path escapes the source root: link-file");
    expect(() => files.resolve("id.key")).toThrow("id.key is not accessible (excluded by .aiignore)");
    expect(() => files.resolve("nested/deeper/secret.md")).toThrow(/excluded by \.aiignore/);
  });

  it("lets through what negations re-include at two depths, and absolute paths inside the root", async () => {
    expect(await files.read("public.key")).toBe("public ok\n");
    expect(await files.read("nested/visible.env")).toBe("visible env\n");
    expect(await files.read("nested/deeper/hidden.txt")).toBe("deeper wins\n");
    expect(await files.read(path.join(tree.root, "ok.txt"))).toBe("hello from the root\n");
    const real = fs.realpathSync(tree.root);
    expect(files.resolve("./src/../ok.txt")).toBe(path.join(real, "ok.txt"));
    // A path that does not exist yet resolves (a tool may write it), inside the root.
    expect(files.resolve("notes/new.md")).toBe(path.join(real, "notes", "new.md"));
  });

  it("filter keeps the regular files only, as safe absolute paths", () => {
    const real = fs.realpathSync(tree.root);
    expect(files.filter(["ok.txt", "missing.txt", "src", "public.key", "id.key", "link-file", "nested/deeper/hidden.txt"])).toEqual([
      path.join(real, "ok.txt"),
      path.join(real, "public.key"),
      path.join(real, "nested", "deeper", "hidden.txt"),
    ]);
  });

  it("read refuses folders, missing and binary files", async () => {
    fs.writeFileSync(path.join(tree.root, "blob.bin"), Buffer.from([1, 0, 2]));
    await expect(files.read("src")).rejects.toThrow("src is not a regular file");
    await expect(files.read("nope.txt")).rejects.toThrow("file not found: nope.txt");
    await expect(files.read("blob.bin")).rejects.toThrow(/blob\.bin is a binary file/);
  });

  it("a tool that lets the error fly returns it as the built-ins would", async () => {
    const tool = defineTool({
      name: "peek",
      description: "Peek.",
      input: z.object({ path: z.string() }),
      execute: ({ path: p }, ctx) => ctx.files.read(p),
    });
    const result = await invoke(tool, { path: "../outside/secret.txt" }, testContext({ sourceRoot: tree.root }));
    expect(result.text).toBe("Error: path escapes the source root: ../outside/secret.txt");
    expect((await invoke(tool, { path: "ok.txt" }, testContext({ sourceRoot: tree.root }))).text).toBe("hello from the root\n");
  });
});

describe("pathArgument", () => {
  it('sets format "path" on a zod argument (keeping its description) and on a JSON Schema property', async () => {
    const schema = await inputJsonSchema(z.object({ file: pathArgument(z.string().describe("File to read")), n: z.number() }));
    expect(schema.properties).toEqual({ file: { type: "string", description: "File to read", format: "path" }, n: { type: "number" } });
    expect(pathArgument({ type: "string" })).toEqual({ type: "string", format: "path" });
  });
});
