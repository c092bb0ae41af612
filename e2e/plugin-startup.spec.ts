// Issue 29 item 3: a plugin whose import never settles cannot stop the server. Start-up serves
// requests while the registry loads, and the stuck entry is skipped once its bound passes.
import path from "node:path";
import { expect, test } from "@playwright/test";
import { startOwnServer, type OwnServer } from "./pages/next-server";
import { rawRequest } from "./pages/security-http";

const NEVER_SETTLES = path.resolve("examples/plugins/fixtures/never-settles");

test.describe("a plugin whose import never settles", () => {
  test.describe.configure({ timeout: 180_000 });
  let server: OwnServer;

  test.beforeAll(async () => {
    // A bound long enough that the requests below are answered while the import is still pending.
    server = await startOwnServer("stuck-plugin", () => `plugins: { paths: [${JSON.stringify(NEVER_SETTLES)}], importTimeoutSeconds: 20 }\n`, {
      readyProbe: "/api/runs",
    });
  });

  test.afterAll(async () => {
    await server?.stop();
  });

  test("pages are served while it loads; then it is skipped with a diagnostic on /tools, the API and the log", async ({ page }) => {
    let toolsSettled = false;
    const tools = rawRequest(`${server.origin}/api/tools`).finally(() => (toolsSettled = true));

    // Another page answers in full while the registry still waits on the import.
    const runs = await rawRequest(`${server.origin}/runs`);
    expect(runs.status).toBe(200);
    // /tools streams its loading state first instead of hanging.
    await page.goto(`${server.origin}/tools`, { waitUntil: "commit" });
    await expect(page.getByTestId("tools-loading")).toContainText("Loading tools…");
    expect(toolsSettled).toBe(false);

    const answered = await tools;
    expect(answered.status).toBe(200);
    const body = JSON.parse(answered.body) as { tools: Record<string, unknown>; diagnostics: { kind: string; entry: string; message: string }[] };
    expect(body.tools.read_file).toBeDefined();
    expect(body.diagnostics).toContainEqual(
      expect.objectContaining({ kind: "import-timed-out", entry: "never_settles", message: expect.stringContaining("did not finish within 20 s") }),
    );
    await expect(page.getByTestId("diagnostic").filter({ hasText: "never_settles" })).toContainText("import timed out");
    expect(server.server.output).toContain("did not finish within 20 s");
  });
});
