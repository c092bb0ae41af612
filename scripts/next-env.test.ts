import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildingMessage, nextStartArgs, serverNodeFlags, withTelemetryOff } from "./next-env.mjs";

describe("Next.js telemetry", () => {
  it("is off unless the person set NEXT_TELEMETRY_DISABLED themselves", () => {
    expect(withTelemetryOff({ PATH: "/bin" })).toEqual({ PATH: "/bin", NEXT_TELEMETRY_DISABLED: "1" });
    expect(withTelemetryOff({ NEXT_TELEMETRY_DISABLED: "" }).NEXT_TELEMETRY_DISABLED).toBe("");
  });

  it("is turned off by every script that runs next", () => {
    const read = (f: string) => fs.readFileSync(path.join(import.meta.dirname, f), "utf8");
    for (const script of ["start.mjs", "build.mjs", "e2e-server.mjs"]) expect(read(script), script).toContain("withTelemetryOff(process.env)");
    const scripts = (JSON.parse(read("../package.json")) as { scripts: Record<string, string> }).scripts;
    for (const [name, line] of Object.entries(scripts)) if (/(^|&& )next /.test(line)) throw new Error(`npm run ${name} runs next without scripts/next.mjs`);
    expect(scripts["dev:serve"]).toContain("scripts/next.mjs dev");
    expect(read("next.mjs")).toContain("withTelemetryOff(process.env)");
    expect(read("../bin/commands/serve.ts")).toContain("withTelemetryOff(process.env)");
  });
});

describe("the first npm start", () => {
  it("says it is building and roughly how long it takes", () => {
    expect(buildingMessage("there is no build yet", true)).toMatch(/building the app for the first time \(there is no build yet\).*about 1–2 minutes/);
    expect(buildingMessage("the sources changed since the build", false)).toMatch(/building the app again.*about 1–2 minutes/);
  });
});

describe("the production build", () => {
  // Turbopack traces the whole project into the server output when app code reaches the file
  // system through a path it cannot bound (it warned about lib/server/runs/runs-root.ts).
  it("has no unbounded process.cwd() path in app/ code", () => {
    const app = path.join(import.meta.dirname, "../app");
    const files = (fs.readdirSync(app, { recursive: true }) as string[]).filter((f) => /\.tsx?$/.test(f) && !f.endsWith(".test.ts"));
    expect(files.length).toBeGreaterThan(10);
    for (const f of files) {
      const text = fs.readFileSync(path.join(app, f), "utf8");
      for (const m of text.matchAll(/(\/\*\s*turbopackIgnore: true\s*\*\/\s*)?process\.cwd\(\)(\s*,\s*["'`])?/g)) {
        expect(m[1] !== undefined || m[2] !== undefined, `${f}: ${m[0]}`).toBe(true);
      }
    }
  });
});

describe("the server's Node flags", () => {
  it("run AsyncLocalStorage on AsyncContextFrame on Node 22 (Node 24 does by default and no longer takes the flag)", () => {
    expect(serverNodeFlags("22.23.3")).toEqual(["--experimental-async-context-frame"]);
    expect(serverNodeFlags("24.1.0")).toEqual([]);
  });

  it("are how every script starts the server", () => {
    const read = (f: string) => fs.readFileSync(path.join(import.meta.dirname, f), "utf8");
    for (const script of ["start.mjs", "e2e-server.mjs", "../e2e/pages/next-server.ts"]) {
      expect(read(script), script).toContain("nextStartArgs(");
      expect(read(script), script).not.toContain('"node_modules/next/dist/bin/next", "start"');
    }
    expect(nextStartArgs("/app", "-p", "3000").slice(-4)).toEqual(["/app/node_modules/next/dist/bin/next", "start", "-p", "3000"]);
  });
});
