import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findJsonError, lineColumn, parseJson, readJsonFile } from "./json";
import { readMatrixFile } from "./matrix";

describe("parseJson", () => {
  it("parses valid JSON and a leading BOM", () => {
    expect(parseJson('{"a":1}', "x.json")).toEqual({ ok: true, value: { a: 1 } });
    expect(parseJson("\ufeff[1]", "x.json")).toEqual({ ok: true, value: [1] });
  });

  it.each([
    ['{\n  "a": }', 2, 8],
    ['{\n  "a": 1,\n  "b" 2\n}', 3, 7],
    ['{"a": [1, 2,\n', 2, 1],
    ['{"a": "unterminated', 1, 20],
    ["[1, 2] x", 1, 8],
    ["", 1, 1],
    ['{\n"a": tru}', 2, 6],
  ])("names the file and line:column of %j", (text, line, column) => {
    const r = parseJson(text, "runs/x/matrix.json");
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.line).toBe(line);
    expect(r.column).toBe(column);
    expect(r.error.startsWith(`runs/x/matrix.json:${line}:${column}: `)).toBe(true);
  });

  it("lineColumn counts from 1", () => {
    expect(lineColumn("ab\ncd", 0)).toEqual({ line: 1, column: 1 });
    expect(lineColumn("ab\ncd", 4)).toEqual({ line: 2, column: 2 });
  });

  it("the scanner accepts what JSON.parse accepts", () => {
    for (const t of ['{"a":[1,-2.5e3,true,false,null,"\\u00e9\\n"]}', " [ ] ", '"x"', "0"]) expect(findJsonError(t)).toBeNull();
  });
});

describe("readJsonFile", () => {
  it("reports a missing file and a truncated file by name, and re-labels cached failures", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "json-"));
    expect(readJsonFile(path.join(dir, "nope.json"), "a/nope.json")).toMatchObject({ ok: false, error: "a/nope.json: file not found" });
    const file = path.join(dir, "matrix.json");
    fs.writeFileSync(file, '{\n  "schema_version": 1,\n  "cells": [\n    {"name": "a"');
    const first = readMatrixFile(file, "t/matrix.json");
    expect(first).toEqual({ ok: false, error: "t/matrix.json:4:17: unexpected end of input" });
    expect(readMatrixFile(file, "other/matrix.json")).toEqual({ ok: false, error: "other/matrix.json:4:17: unexpected end of input" });
  });
});

describe("the artifact size limit", () => {
  it("refuses a file above maxBytes from its stat, naming the limit and the setting", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "json-limit-"));
    try {
      const file = path.join(dir, "matrix.json");
      fs.writeFileSync(file, JSON.stringify({ cells: Array.from({ length: 100 }, (_, i) => i) }));
      const refused = readJsonFile(file, "run/matrix.json", { maxBytes: 64 });
      expect(refused.ok).toBe(false);
      if (!refused.ok) expect(refused.error).toMatch(/^run\/matrix\.json: \d+ bytes is above the 64 bytes limit .*runs\.maxArtifactBytes/);
      expect(readJsonFile(file, "run/matrix.json", { maxBytes: 1 << 20 }).ok).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
