import { describe, expect, it } from "vitest";
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

describe("the test XML reader", () => {
  it("refuses what is not well-formed, so the reporter test can fail", () => {
    expect(() => parseXml("<a><b></a></b>")).toThrow(/closes/);
    expect(() => parseXml('<a x="1 < 2"/>')).toThrow(/raw/);
    expect(() => parseXml("<a>fish & chips</a>")).toThrow(/raw/);
    expect(parseXml('<a x="&lt;&amp;">t&#65;</a>')).toEqual({ name: "a", attributes: { x: "<&" }, children: [], text: "tA" });
  });
});
