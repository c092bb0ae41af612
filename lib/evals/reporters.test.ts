import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { validateXML } from "xmllint-wasm";
import { parseXml, type XmlElement } from "@/lib/testing/xml";
import { caseCounts, junitXml } from "./reporters";
import type { EvalRunResult, TrialRecord } from "./runner";

function trial(cell: string, c: string, n: number, verdict: TrialRecord["verdict"], reasons: string[] = []): TrialRecord {
  const [model = "", mode = "native", protocol = null] = cell.split(" · ");
  return {
    cell,
    model,
    mode: mode as TrialRecord["mode"],
    protocol: protocol as TrialRecord["protocol"],
    case: c,
    trial: n,
    prompt: "p",
    calls: [],
    answer: "",
    steps: 1,
    verdict,
    reason: reasons[0] ?? null,
    reasons,
    latency_ms: 250,
    input_tokens: null,
    output_tokens: null,
    chat_id: null,
  };
}

const run: EvalRunResult = {
  cells: [
    { name: "offline · native", model: "offline", mode: "native", protocol: null },
    { name: "gpt · text · hermes", model: "gpt", mode: "text", protocol: "hermes" },
  ],
  trials: [
    trial("offline · native", "list-sub", 1, "pass"),
    trial("offline · native", "list-sub", 2, "pass"),
    trial("offline · native", 'read <&> "quoted"', 1, "pass"),
    trial("offline · native", 'read <&> "quoted"', 2, "fail", ['read_file called with path "a<b", expected "a&b"\u0007']),
    trial("gpt · text · hermes", "list-sub", 1, "error", ["error: provider said 500"]),
    trial("gpt · text · hermes", 'read <&> "quoted"', 1, "pass"),
  ],
  trialsPerCase: 2,
  total: 8,
  partial: false,
  startedAt: new Date(0),
  finishedAt: new Date(1000),
};

const children = (el: XmlElement, name: string) => el.children.filter((c) => c.name === name);

describe("the JUnit reporter", () => {
  it("writes well-formed JUnit XML: a testsuite per cell, a testcase per case, a failure where any trial failed", () => {
    const root = parseXml(junitXml("builtins", run));
    expect(root.name).toBe("testsuites");
    expect(root.attributes).toMatchObject({ name: "builtins", tests: "4", failures: "1", errors: "1" });
    const suites = children(root, "testsuite");
    expect(suites.map((s) => s.attributes.name)).toEqual(["offline · native", "gpt · text · hermes"]);
    expect(root.children.every((c) => c.name === "testsuite")).toBe(true);
    const [offline, gpt] = suites;
    expect(offline!.attributes).toMatchObject({ tests: "2", failures: "1", errors: "0", skipped: "0", time: "1.000" });
    const cases = children(offline!, "testcase");
    expect(cases.map((c) => c.attributes.name)).toEqual(["list-sub", 'read <&> "quoted"']);
    expect(cases[0]!.attributes).toEqual({ name: "list-sub", classname: "builtins.offline · native", time: "0.500" });
    expect(cases[0]!.children).toEqual([]);
    const [failure] = children(cases[1]!, "failure");
    expect(failure!.attributes).toEqual({ message: '1 of 2 trials failed: read_file called with path "a<b", expected "a&b"', type: "mismatch" });
    // The control character a model sent cannot be in XML at all: dropped, the rest kept.
    expect(failure!.text).toBe('trial 2 (fail): read_file called with path "a<b", expected "a&b"');
    const gptCases = children(gpt!, "testcase");
    // A provider error is no mismatch: an <error>, counted in errors.
    expect(gpt!.attributes).toMatchObject({ tests: "2", failures: "0", errors: "1" });
    expect(children(gptCases[0]!, "failure")).toEqual([]);
    expect(children(gptCases[0]!, "error")[0]!.attributes).toEqual({ message: "1 of 1 trial errored: error: provider said 500", type: "error" });
    expect(children(gptCases[0]!, "error")[0]!.text).toBe("trial 1 (error): error: provider said 500");
    expect(children(gptCases[1]!, "failure")).toEqual([]);
  });

  it("puts a judge's reason in the failure message and every judged verdict in system-out", () => {
    const judge = (verdict: "pass" | "fail", reason: string) => ({ verdict, reason, model: "grader" });
    const failing = {
      ...trial("offline · native", "polite", 1, "fail", ["judge grader says fail: the answer is rude"]),
      judge: judge("fail", "the answer is rude"),
    };
    const passing = { ...trial("offline · native", "kind", 1, "pass"), judge: judge("pass", "it thanks the user") };
    const root = parseXml(junitXml("j", { ...run, cells: [run.cells[0]!], trials: [failing, passing], total: 2, trialsPerCase: 1 }));
    const [polite, kind] = children(children(root, "testsuite")[0]!, "testcase");
    expect(children(polite!, "failure")[0]!.attributes.message).toBe("1 of 1 trial failed: judge grader says fail: the answer is rude");
    expect(children(polite!, "system-out")[0]!.text).toBe("trial 1: judge grader fail: the answer is rude");
    expect(children(kind!, "failure")).toEqual([]);
    expect(children(kind!, "system-out")[0]!.text).toBe("trial 1: judge grader pass: it thanks the user");
  });

  it("writes a case with a failed and an errored trial as a failure, naming both", () => {
    const mixed = [trial("offline · native", "c", 1, "fail", ["wrong"]), trial("offline · native", "c", 2, "error", ["error: down"])];
    const root = parseXml(junitXml("m", { ...run, cells: [run.cells[0]!], trials: mixed, total: 2 }));
    const [c] = children(children(root, "testsuite")[0]!, "testcase");
    expect(children(c!, "failure")[0]!.attributes).toEqual({ message: "2 of 2 trials failed: wrong", type: "mismatch" });
    expect(children(c!, "failure")[0]!.text).toBe("trial 1 (fail): wrong\ntrial 2 (error): error: down");
    expect(root.attributes).toMatchObject({ failures: "1", errors: "0" });
  });

  it("counts cases, failing when any trial failed", () => {
    expect(caseCounts(run)).toEqual({ cases: 4, failed: 2 });
  });
});

// A JUnit schema (see its header) run by libxml2's xmllint, compiled to WebAssembly.
const SCHEMA = fs.readFileSync(path.resolve(import.meta.dirname, "__fixtures__/junit/junit.xsd"), "utf8");

/** The schema's complaints about a document, one a line; empty when it is valid. */
async function schemaErrors(xml: string): Promise<string[]> {
  const result = await validateXML({ xml: [{ fileName: "report.xml", contents: xml }], schema: [{ fileName: "junit.xsd", contents: SCHEMA }] });
  return result.valid ? [] : result.errors.map((e) => e.message);
}

const NATIVE = { name: "offline · native", model: "offline", mode: "native", protocol: null } as const;
const HERMES = { name: "gpt · text · hermes", model: "gpt", mode: "text", protocol: "hermes" } as const;

function runOf(trials: TrialRecord[], cells: EvalRunResult["cells"] = [NATIVE, HERMES]): EvalRunResult {
  return { cells, trials, trialsPerCase: 2, total: trials.length, partial: false, startedAt: new Date(0), finishedAt: new Date(1000) };
}

describe("the JUnit reporter against a JUnit schema", () => {
  it("writes a valid report for a passing run", async () => {
    const xml = junitXml("builtins", runOf([trial(NATIVE.name, "list-sub", 1, "pass"), trial(HERMES.name, "list-sub", 1, "pass")]));
    expect(await schemaErrors(xml)).toEqual([]);
  });

  it("writes a valid report with a failing case, a judged case's output and a case that failed one trial and errored another", async () => {
    const judged = {
      ...trial(NATIVE.name, "polite", 1, "fail", ["judge grader says fail: rude"]),
      judge: { verdict: "fail" as const, reason: "rude", model: "grader" },
    };
    const xml = junitXml(
      "builtins",
      runOf([
        trial(NATIVE.name, "list-sub", 1, "pass"),
        trial(NATIVE.name, "list-sub", 2, "fail", ['list_files called with path "lib", expected "sub"']),
        judged,
        trial(HERMES.name, "mixed", 1, "fail", ["wrong"]),
        trial(HERMES.name, "mixed", 2, "error", ["error: down"]),
      ]),
    );
    expect(xml).toContain("<failure");
    expect(xml).toContain("<system-out>");
    expect(await schemaErrors(xml)).toEqual([]);
  });

  it("writes a valid report when every trial errored", async () => {
    const xml = junitXml("builtins", runOf([trial(NATIVE.name, "a", 1, "error", ["error: provider said 500"]), trial(HERMES.name, "a", 1, "error", [])]));
    expect(xml).toContain("<error");
    expect(await schemaErrors(xml)).toEqual([]);
  });

  it("writes a valid report for names and reasons with XML's special characters, quotes, · and control characters", async () => {
    const odd = `read <&> "quoted" 'single' · ü`;
    const cell = { name: `m&m's <model> · text · json`, model: `m&m's <model>`, mode: "text", protocol: "json" } as const;
    const xml = junitXml(`suite "&" <x>`, runOf([trial(cell.name, odd, 1, "fail", [`path "a<b" & 'c' · \u0007bell`])], [cell]));
    expect(await schemaErrors(xml)).toEqual([]);
  });

  it("can fail: the schema refuses a broken report", async () => {
    const good = junitXml("builtins", runOf([trial(NATIVE.name, "a", 1, "fail", ["wrong"])], [NATIVE]));
    expect(await schemaErrors(good)).toEqual([]);
    const broken = [
      good.replace(/(<testsuite name="[^"]*") tests="1"/, "$1"), // a testsuite without its count of tests
      good.replace(/(<testsuite [^>]*)failures="1"/, '$1failures="one"'), // a count that is no number
      good.replace("<failure", "<oops").replace("</failure>", "</oops>"), // an element the format has not
      good.replace('<testcase name="a"', "<testcase"), // a testcase without a name
    ];
    for (const doc of broken) expect(doc).not.toBe(good);
    const errors = await Promise.all(broken.map(schemaErrors));
    expect(errors.map((e) => e.map((m) => m.replace(/^Schemas validity error : /, "")))).toEqual([
      ["Element 'testsuite': The attribute 'tests' is required but missing."],
      ["Element 'testsuite', attribute 'failures': 'one' is not a valid value of the atomic type 'xs:nonNegativeInteger'."],
      ["Element 'oops': This element is not expected. Expected is one of ( failure, error, skipped, system-out, system-err )."],
      ["Element 'testcase': The attribute 'name' is required but missing."],
    ]);
  });
});

describe("the test XML reader", () => {
  it("refuses what is not well-formed, so the reporter test can fail", () => {
    expect(() => parseXml("<a><b></a></b>")).toThrow(/closes/);
    expect(() => parseXml('<a x="1 < 2"/>')).toThrow(/raw/);
    expect(() => parseXml("<a>fish & chips</a>")).toThrow(/raw/);
    expect(parseXml('<a x="&lt;&amp;">t&#65;</a>')).toEqual({ name: "a", attributes: { x: "<&" }, children: [], text: "tA" });
  });
});
