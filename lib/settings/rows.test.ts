import { describe, expect, it } from "vitest";
import { loadSettings } from "./load";
import { settingRows } from "./rows";

describe("the Settings page's rows", () => {
  it("explain the AI-assisted guard file, set or not", () => {
    const unset = settingRows(loadSettings({ files: [], env: {} })).find((r) => r.key === "aiAssistedGuardFile");
    expect(unset?.value).toBe("not set (the default file)");
    expect(unset?.help).toMatch(/appends the driving model .* commit hook .* \.git\/commit-temp\/ai-assisted/);
    const set = settingRows(loadSettings({ files: [], env: { TOOLROOM_AIASSISTEDGUARDFILE: "ai.txt" } })).filter((r) => r.key === "aiAssistedGuardFile");
    expect(set).toHaveLength(1);
    expect(set[0]).toMatchObject({ value: '"ai.txt"', help: expect.stringContaining("AI-assisted guard file") });
  });
});
