import { describe, expect, it } from "vitest";
import { bfclCheck, bfclMatcherProblem, bfclStandardize } from "./bfcl-checker";
import { matchValue } from "./matchers";

// Cases from the behaviour BFCL's AST checker documents (ast_checker.py): standardize_string,
// string_checker, list_checker, dict_checker, list_dict_checker and plain membership.
describe("BFCL's checker for one parameter", () => {
  it("standardizes strings as BFCL does: no spaces or ,./-_*^, lower case, ' as \"", () => {
    expect(bfclStandardize("San Francisco, CA")).toBe("sanfranciscoca");
    expect(bfclStandardize("April 1, 2024")).toBe(bfclStandardize("april 1 2024"));
    expect(bfclStandardize("x^2 * y_1 - 3.5/z")).toBe("x2y135z");
    expect(bfclStandardize("it's")).toBe('it"s');
    // Only those characters: a tab, a colon or a semicolon stay.
    expect(bfclStandardize("a\tb:c;d")).toBe("a\tb:c;d");
  });

  it("compares strings standardized on both sides", () => {
    expect(bfclCheck("san francisco ca", ["San Francisco, CA"])).toBeUndefined();
    expect(bfclCheck("SAN-FRANCISCO_CA.", ["San Francisco, CA"])).toBeUndefined();
    expect(bfclCheck("San Jose, CA", ["San Francisco, CA", "SF"])).toBe(
      '"San Jose, CA", expected one of ["San Francisco, CA","SF"] (ignoring case, spaces and ,./-_*^)',
    );
    // A string never equals a number BFCL accepts (its type check refuses it first).
    expect(bfclCheck("10", [10])).toMatch(/expected one of \[10\]/);
  });

  it('takes "" as "may be left out", and a given value is still checked', () => {
    expect(bfclCheck(undefined, ["celsius", ""])).toBeUndefined();
    expect(bfclCheck(undefined, ["celsius"])).toBe("missing");
    expect(bfclCheck("Celsius", ["celsius", ""])).toBeUndefined();
    expect(bfclCheck("kelvin", ["celsius", ""])).toBe('"kelvin", expected one of ["celsius"] (ignoring case, spaces and ,./-_*^)');
  });

  it("compares numbers and booleans by plain membership", () => {
    expect(bfclCheck(10, [10, 12])).toBeUndefined();
    // JSON has one number type: 10 and 10.0 are the same value here (see docs/evals.md).
    expect(bfclCheck(10.0, [10])).toBeUndefined();
    expect(bfclCheck(11, [10, 12])).toBe("11, expected one of [10,12]");
    expect(bfclCheck(true, [true, ""])).toBeUndefined();
    // Python's True == 1, but BFCL's type check refuses a bool for an integer first.
    expect(bfclCheck(true, [1])).toBe("true, expected one of [1]");
    expect(bfclCheck(1, [true])).toBe("1, expected one of [true]");
  });

  it("compares lists whole, in order, strings inside standardized", () => {
    expect(bfclCheck(["new york", "LOS ANGELES"], [["New York", "Los Angeles"]])).toBeUndefined();
    expect(bfclCheck(["Los Angeles", "New York"], [["New York", "Los Angeles"]])).toMatch(/expected one of/);
    expect(bfclCheck(["New York"], [["New York", "Los Angeles"]])).toMatch(/expected one of/);
    expect(
      bfclCheck(
        [1, 2],
        [
          [1, 2, 3],
          [1, 2],
        ],
      ),
    ).toBeUndefined();
    // Nested lists are compared as they are: only a list's own strings are standardized.
    expect(bfclCheck([["A b"]], [[["a b"]]])).toMatch(/expected one of/);
    // As in BFCL, an accepted "" stands for the empty list too.
    expect(bfclCheck([], [["x"], ""])).toBeUndefined();
    expect(bfclCheck([], [["x"]])).toMatch(/expected one of/);
  });

  it('checks a dict per key: accepted values, no key outside the answer, a key left out only when "" is accepted', () => {
    const answer = { city: ["San Francisco", "SF"], unit: ["celsius", ""], days: [3] };
    expect(bfclCheck({ city: "san francisco", days: 3 }, [answer])).toBeUndefined();
    expect(bfclCheck({ city: "SF", unit: "Celsius", days: 3 }, [answer])).toBeUndefined();
    // BFCL fails a key its answer does not have (the old partial object matcher passed it).
    expect(bfclCheck({ city: "SF", days: 3, country: "US" }, [answer])).toBe("unexpected key country");
    expect(bfclCheck({ city: "SF" }, [answer])).toBe(".days missing");
    expect(bfclCheck({ city: "Oakland", days: 3 }, [answer])).toBe('.city "Oakland", expected one of ["San Francisco","SF"]');
    expect(bfclCheck({ city: "SF", days: 4 }, [answer])).toBe(".days 4, expected one of [3]");
  });

  it("passes a dict that fits any one of several accepted dicts", () => {
    const accepted = [{ from: ["Paris"], to: ["Berlin"] }, { from: ["Berlin"], to: ["Paris"] }, ""];
    expect(bfclCheck({ from: "paris", to: "berlin" }, accepted)).toBeUndefined();
    expect(bfclCheck({ from: "Berlin", to: "Paris" }, accepted)).toBeUndefined();
    expect(bfclCheck(undefined, accepted)).toBeUndefined();
    expect(bfclCheck({ from: "Paris", to: "Paris" }, accepted)).toBe(
      '{"from":"Paris","to":"Paris"} fits none of the 2 accepted dicts (the first: .to "Paris", expected one of ["Berlin"])',
    );
    expect(bfclCheck({ from: "Paris" }, [{ from: ["Paris"], to: ["Berlin"] }])).toBe(".to missing");
    // No dict among the accepted values: a dict given never passes.
    expect(bfclCheck({ from: "Paris" }, ["Paris", ""])).toBe('{"from":"Paris"}, expected one of ["Paris"]');
  });

  it("checks a list of dicts in order, each against the dict in its place", () => {
    const accepted = [
      [
        { name: ["Alice"], age: [30, ""] },
        { name: ["Bob"], age: [25] },
      ],
    ];
    expect(bfclCheck([{ name: "alice" }, { name: "BOB", age: 25 }], accepted)).toBeUndefined();
    expect(bfclCheck([{ name: "Bob", age: 25 }, { name: "Alice" }], accepted)).toBe('[0].name "Bob", expected one of ["Alice"]');
    expect(bfclCheck([{ name: "Alice" }], accepted)).toBe("1 dicts, expected 2");
    expect(
      bfclCheck(
        [
          { name: "Alice", nick: "Al" },
          { name: "Bob", age: 25 },
        ],
        accepted,
      ),
    ).toBe("[0] unexpected key nick");
    expect(bfclCheck(["Alice", { name: "Bob", age: 25 }], accepted)).toBe('[0] "Alice" is not a dict');
    // Several accepted lists: any one.
    expect(bfclCheck([{ name: "Bob", age: 25 }], [...accepted, [{ name: ["Bob"], age: [25] }]])).toBeUndefined();
  });

  it("is the suite matcher { bfcl: [...] }", () => {
    expect(matchValue("san francisco ca", { bfcl: ["San Francisco, CA"] })).toBeUndefined();
    // A misshapen one read back from a run's files (the loader refuses it) fails the value, never throws.
    expect(matchValue({ a: 1 }, { bfcl: [{ a: 1 }] })).toBe(".a 1, expected one of []");
    expect(matchValue("x", { bfcl: "x" })).toBe("bfcl takes a list of accepted values");
    expect(matchValue(undefined, { bfcl: ["x", ""] })).toBeUndefined();
    expect(matchValue({ a: 1, b: 2 }, { bfcl: [{ a: [1] }] })).toBe("unexpected key b");
  });

  it("names a bad shape for the suite loader", () => {
    expect(bfclMatcherProblem([])).toEqual({ at: "", message: "bfcl takes a non-empty list of accepted values" });
    expect(bfclMatcherProblem("x")).toEqual({ at: "", message: "bfcl takes a non-empty list of accepted values" });
    expect(bfclMatcherProblem([{ city: "Paris" }])).toEqual({
      at: "[0].city",
      message: "a dict's accepted values are a list per key (BFCL's { key: [values] })",
    });
    expect(bfclMatcherProblem([[{ a: [1] }, { b: 2 }]])).toMatchObject({ at: "[0][1].b" });
    expect(bfclMatcherProblem(["x", "", 3, ["a"], { a: [1, ""] }, [{ a: [1] }]])).toBeUndefined();
  });
});
