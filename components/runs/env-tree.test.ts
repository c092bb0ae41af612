import { describe, expect, it } from "vitest";
import { defaultOpen, flattenJson, visibleNodes } from "./env-tree";

const doc = { rocm: { version: "7.0.2", root: "/opt/rocm" }, gpu_arch: { gfx_targets: ["gfx942"] }, partial: true, system_health: null };

describe("env tree", () => {
  it("flattens with dotted and indexed paths", () => {
    const nodes = flattenJson(doc);
    expect(nodes.map((n) => n.path)).toEqual([
      "rocm",
      "rocm.version",
      "rocm.root",
      "gpu_arch",
      "gpu_arch.gfx_targets",
      "gpu_arch.gfx_targets[0]",
      "partial",
      "system_health",
    ]);
    expect(nodes.find((n) => n.path === "rocm.version")?.text).toBe('"7.0.2"');
    expect(nodes.find((n) => n.path === "system_health")?.text).toBe("null");
  });

  it("shows only children of open containers", () => {
    const nodes = flattenJson(doc);
    const closed = visibleNodes(nodes, new Set(), "").map((n) => n.path);
    expect(closed).toEqual(["rocm", "gpu_arch", "partial", "system_health"]);
    const open = visibleNodes(nodes, defaultOpen(nodes), "").map((n) => n.path);
    expect(open).toContain("rocm.version");
    expect(open).toContain("gpu_arch.gfx_targets");
    expect(open).not.toContain("gpu_arch.gfx_targets[0]");
  });

  it("search keeps matches and their ancestors, whatever is open", () => {
    const nodes = flattenJson(doc);
    expect(visibleNodes(nodes, new Set(), "gfx942").map((n) => n.path)).toEqual(["gpu_arch", "gpu_arch.gfx_targets", "gpu_arch.gfx_targets[0]"]);
    expect(visibleNodes(nodes, new Set(), "ROCM.VER").map((n) => n.path)).toEqual(["rocm", "rocm.version"]);
    expect(visibleNodes(nodes, new Set(), "no such thing")).toEqual([]);
  });
});
