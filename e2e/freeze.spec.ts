// One request must not freeze the server: while CPU-heavy requests run back to back, GET /api/tools
// is answered in between them. Before grep_code and the offline model were linear, the first heavy
// request blocked the event loop for minutes and every GET below waited for it. The guard is order,
// not time: heavy requests of both kinds finish between the probes. (Latencies are printed as a
// figure; bench/ holds the measured ones.)
import { expect, test, type APIRequestContext } from "@playwright/test";

// 200 lines of 30 "a"s and "!": (a+)+$ takes a backtracking engine 2^30 steps on each.
const CATASTROPHIC = { input: { pattern: "(a+)+$", path: "e2e/fixtures/freeze", max_results: 500 } };

function braceChat(n: number): string {
  const id = `freeze-${Date.now()}-${n}`;
  // The named tool makes the offline model look for JSON arguments among 80 KB of "{".
  const text = `read_file ${"{".repeat(80_000)}`;
  return JSON.stringify({ id, supervised: false, message: { id: `${id}-m1`, role: "user", parts: [{ type: "text", text }] } });
}

/** Sends heavy requests one after another until `stop` resolves; returns how many completed. */
async function keepBusy(request: APIRequestContext, stop: Promise<void>, log: string[]): Promise<{ grep: number; chat: number }> {
  let done = false;
  void stop.then(() => (done = true));
  const counts = { grep: 0, chat: 0 };
  const grepLoop = async () => {
    while (!done) {
      const res = await request.post("/api/tools/grep_code/invoke", { data: CATASTROPHIC, timeout: 120_000 });
      expect(res.status()).toBe(200);
      expect(await res.text()).toContain("Found 0 match(es)");
      counts.grep++;
      log.push("grep");
    }
  };
  const chatLoop = async () => {
    while (!done) {
      const res = await request.post("/api/chat", { headers: { "Content-Type": "application/json" }, data: braceChat(counts.chat), timeout: 120_000 });
      expect(res.status()).toBe(200);
      expect(await res.text()).toContain('"toolName":"read_file"');
      counts.chat++;
      log.push("chat");
    }
  };
  await Promise.all([grepLoop(), chatLoop()]);
  return counts;
}

test("GET /api/tools is answered between catastrophic regexes and 80 KB brace messages", async ({ request }) => {
  test.setTimeout(180_000);
  await request.get("/api/tools"); // warm the route and the registry
  let release!: () => void;
  const stop = new Promise<void>((resolve) => (release = resolve));
  const log: string[] = []; // what finished, in order: "grep", "chat" or "probe"
  const busy = keepBusy(request, stop, log);
  await new Promise((resolve) => setTimeout(resolve, 300)); // let both loops get going
  const latencies: number[] = [];
  try {
    for (let i = 0; i < 9; i++) {
      const started = performance.now();
      const res = await request.get("/api/tools", { timeout: 60_000 });
      latencies.push(performance.now() - started);
      expect(res.ok()).toBe(true);
      log.push("probe");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    release();
  }
  const counts = await busy;
  console.log(`GET /api/tools under load: ${latencies.map((ms) => ms.toFixed(0)).join(", ")} ms; heavy requests done: ${JSON.stringify(counts)}`);
  // Between the first and the last probe, heavy requests of both kinds finished: the probes did not
  // wait for them to stop, and they kept being served while the probes were.
  const between = log.slice(log.indexOf("probe"), log.lastIndexOf("probe"));
  expect(between.filter((what) => what === "grep").length, log.join(" ")).toBeGreaterThan(0);
  expect(between.filter((what) => what === "chat").length, log.join(" ")).toBeGreaterThan(0);
  expect(counts.grep).toBeGreaterThan(1);
  expect(counts.chat).toBeGreaterThan(1);
});
