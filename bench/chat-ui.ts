/**
 * Long chats in the browser: the built app (`next start`, the dist folder from NEXT_DIST_DIR) in
 * headless Chromium, the chat's model a loopback OpenAI-compatible provider. Chats of 500 and 5,000
 * messages are written into the throwaway database before the server starts (lib/testing/long-chat.ts).
 *
 * Prints, with the load average:
 * - streaming 5,000 one-word deltas (2 ms apart) into a new chat and into the 500-message chat:
 *   main-thread tasks over 100 ms, total blocking time, first token on screen after the page got it,
 *   main-thread time per token (CDP TaskDuration) and its ratio long / new;
 * - the route's time to the first text delta against a direct request to the same provider (median
 *   of 30, interleaved), for a new chat and for a 500-message chat; and, for the 500-message chat,
 *   against the provider sent that chat's own request (the body the route sends, ≈ 140 KB);
 * - the 500-message chat page: server time (median of 15) and HTML size; first contentful paint of a
 *   new chat and of the 500-message chat (median of 5 each, interleaved);
 * - the 5,000-message chat: tasks over 100 ms while it opens and while the person scrolls to its top.
 *
 * Nothing is asserted: the goals (issue #17) are printed beside the figures.
 * Run: NEXT_DIST_DIR=.next-bench npm run build && NEXT_DIST_DIR=.next-bench npx tsx bench/chat-ui.ts
 * BENCH_ONLY=5000 runs only the 5,000-message chat (a minute instead of several). BENCH_TRACE=<file.json>
 * also writes a Chromium performance trace of its opening and scrolling (open it in DevTools' Performance
 * panel), and BENCH_TASKS=1 lists each task over 50 ms with when it started.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { chromium, type Page } from "@playwright/test";
import { longChatMessages, seedChat } from "@/lib/testing/long-chat";
import { chromiumPath } from "@/lib/server/runtime/chromium";
import { nextStartArgs } from "../scripts/next-env.mjs";

const TOKENS = 5_000;
const GAP_MS = 2;
const OVERHEAD_RUNS = 30;
const FIRST_WORD = "Zebrafirst";
const LAST_WORD = "Omegalast";
/** "5000": only the 5,000-message chat. */
const ONLY_5000 = process.env.BENCH_ONLY === "5000";
const TRACE = process.env.BENCH_TRACE;
/** Wheel steps before the scroll to the top gives up (a page of 50 older messages is about four steps, plus the wait for it). */
const MAX_STEPS = 1500;

// ---- the loopback provider: "stream" in the last user message gets the long answer, anything else a short one ----

function lastUserText(body: { messages: { role: string; content?: unknown }[] }): string {
  const content = body.messages.findLast((m) => m.role === "user")?.content;
  return typeof content === "string" ? content : JSON.stringify(content ?? "");
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The provider; `longestBody` is the largest request body it has read (the 500-message chat's, once the route sent one). */
async function startProvider(): Promise<{ baseURL: string; longestBody: () => string; close: () => Promise<void> }> {
  let longestBody = "";
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => void answer());
    const answer = async () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      if (raw.length > longestBody.length) longestBody = raw;
      const body = JSON.parse(raw) as { model: string; messages: { role: string; content?: unknown }[] };
      const long = lastUserText(body).includes("stream");
      const event = (delta: object, finish: string | null) =>
        `data: ${JSON.stringify({ id: "chatcmpl-loop", object: "chat.completion.chunk", created: 0, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.write(event({ role: "assistant", content: "" }, null));
      const words = long ? TOKENS : 5;
      for (let i = 0; i < words; i++) {
        const word = i === 0 ? FIRST_WORD : i === words - 1 ? LAST_WORD : `w${i}`;
        res.write(event({ content: `${word} ` }, null));
        if (long) await sleep(GAP_MS);
      }
      res.write(event({}, "stop"));
      res.end("data: [DONE]\n\n");
    };
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return { baseURL: `http://127.0.0.1:${port}/v1`, longestBody: () => longestBody, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

// ---- helpers ----

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const address = s.address();
      s.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

async function waitFor(url: string, server: ChildProcess, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not up yet */
    }
    await sleep(250);
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
const load = () => os.loadavg()[0]!.toFixed(1);

/** Milliseconds from sending `init` to the first chunk whose text contains `marker`; the body is read to its end. */
async function timeToFirst(url: string, init: RequestInit, marker: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let first = NaN;
  let seen = "";
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    if (Number.isNaN(first)) {
      seen += decoder.decode(next.value, { stream: true });
      if (seen.includes(marker)) first = performance.now() - started;
    }
  }
  if (Number.isNaN(first)) throw new Error(`${url}: no "${marker}" in the answer`);
  return first;
}

// ---- the browser side ----

/** Installed before any page script: long tasks from the start, and when the page got the first text delta. */
const INIT_SCRIPT = `
window.__longTasks = [];
new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, duration: e.duration }); })
  .observe({ type: "longtask", buffered: true });
const realFetch = window.fetch.bind(window);
window.fetch = async (input, init) => {
  const response = await realFetch(input, init);
  if (!String(input instanceof Request ? input.url : input).endsWith("/api/chat") || !response.body) return response;
  const decoder = new TextDecoder();
  const body = response.body.pipeThrough(new TransformStream({
    transform(chunk, controller) {
      if (window.__deltaAt === undefined && decoder.decode(chunk, { stream: true }).includes('"type":"text-delta"')) window.__deltaAt = performance.now();
      controller.enqueue(chunk);
    },
  }));
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
};
`;

interface StreamFigures {
  longTasks: number;
  longest: number;
  tbt: number;
  firstOnScreen: number;
  perToken: number;
  perUpdate: number;
  updates: number;
  seconds: number;
}

async function streamInto(page: Page, url: string): Promise<StreamFigures> {
  await page.goto(url);
  await page.getByTestId("composer-input").waitFor();
  await page.waitForLoadState("networkidle");
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");
  const taskSeconds = async () => (await cdp.send("Performance.getMetrics")).metrics.find((m) => m.name === "TaskDuration")!.value;
  const started = await page.evaluate(
    ({ first }) => {
      const w = window as unknown as { __deltaAt?: number; __onScreenAt?: number; __updates: number };
      w.__deltaAt = undefined;
      w.__onScreenAt = undefined;
      w.__updates = 0;
      // The chat section, not the list: a new chat's list element replaces its empty state.
      const list = document.querySelector('section[aria-label="Chat"]')!;
      new MutationObserver(() => {
        w.__updates++;
        if (w.__onScreenAt === undefined && list.textContent.includes(first)) w.__onScreenAt = performance.now();
      }).observe(list, { childList: true, subtree: true, characterData: true });
      return performance.now();
    },
    { first: FIRST_WORD },
  );
  const tasksBefore = await taskSeconds();
  await page.getByTestId("composer-input").fill("stream the long answer please");
  await page.getByTestId("composer-input").press("Enter");
  await page.getByTestId("composer-stop").waitFor({ timeout: 30_000 });
  await page.getByTestId("composer-send").waitFor({ timeout: 300_000 });
  await page.getByTestId("message-list").getByText(LAST_WORD).last().waitFor({ timeout: 30_000 });
  const tasksAfter = await taskSeconds();
  const figures = await page.evaluate((since) => {
    const w = window as unknown as { __deltaAt: number; __onScreenAt: number; __updates: number; __longTasks: { start: number; duration: number }[] };
    const tasks = w.__longTasks.filter((t) => t.start >= since);
    return {
      tasks: tasks.map((t) => t.duration),
      firstOnScreen: w.__onScreenAt - w.__deltaAt,
      updates: w.__updates,
      seconds: (performance.now() - since) / 1000,
    };
  }, started);
  await cdp.detach();
  const over100 = figures.tasks.filter((d) => d > 100);
  return {
    longTasks: over100.length,
    longest: Math.max(0, ...figures.tasks),
    tbt: figures.tasks.reduce((sum, d) => sum + Math.max(0, d - 50), 0),
    firstOnScreen: figures.firstOnScreen,
    perToken: ((tasksAfter - tasksBefore) * 1000) / TOKENS,
    perUpdate: ((tasksAfter - tasksBefore) * 1000) / figures.updates,
    updates: figures.updates,
    seconds: figures.seconds,
  };
}

async function firstContentfulPaint(page: Page, url: string): Promise<number> {
  await page.goto(url);
  await page.getByTestId("composer-input").waitFor();
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const entry = performance.getEntriesByName("first-contentful-paint")[0];
        if (entry) return resolve(entry.startTime);
        new PerformanceObserver((list) => resolve(list.getEntries()[0]!.startTime)).observe({ type: "paint", buffered: true });
      }),
  );
}

/** Opens the chat, waits for it to settle, then scrolls up two screens at a time until the first message shows (or MAX_STEPS steps). */
async function openAndScroll(page: Page, url: string, firstText: string) {
  await page.goto(url);
  await page.getByTestId("composer-input").waitFor();
  await page.waitForLoadState("networkidle");
  await sleep(500);
  const scrollStart = await page.evaluate(() => performance.now());
  const list = page.getByTestId("message-list");
  await list.hover();
  let screens = 0;
  const started = performance.now();
  for (; screens < MAX_STEPS; screens++) {
    // The first row only: the whole list's textContent (thousands of rows) was itself a long task at every step.
    const atTop = await list.evaluate(
      (el, text) => el.scrollTop === 0 && (el.querySelector('[data-testid="message-user"]')?.textContent ?? "").includes(text),
      firstText,
    );
    if (atTop) break;
    await page.mouse.wheel(0, -1800);
    await sleep(60);
  }
  const scrollSeconds = (performance.now() - started) / 1000;
  const rows = await list.evaluate((el) => el.querySelectorAll('[data-testid="message-user"], [data-testid="message-assistant"]').length);
  const tasks = await page.evaluate(() => (window as unknown as { __longTasks: { start: number; duration: number }[] }).__longTasks);
  const open = tasks.filter((t) => t.start < scrollStart).map((t) => t.duration);
  const scroll = tasks.filter((t) => t.start >= scrollStart).map((t) => t.duration);
  const summary = (ds: number[]) => `${ds.filter((d) => d > 100).length} over 100 ms (longest ${Math.round(Math.max(0, ...ds))} ms)`;
  const tasksOver50 = tasks
    .filter((t) => t.duration > 50)
    .map((t) => `  ${t.start < scrollStart ? "open" : "scroll"} task at ${Math.round(t.start)} ms: ${Math.round(t.duration)} ms`);
  return { open: summary(open), scroll: summary(scroll), screens, scrollSeconds, reachedTop: screens < MAX_STEPS, rows, tasksOver50 };
}

// ---- the run ----

const distDir = process.env.NEXT_DIST_DIR ?? ".next";
if (!fs.existsSync(path.join(distDir, "BUILD_ID"))) {
  console.error(`no build in ${distDir}: run \`NEXT_DIST_DIR=${distDir} npm run build\` first`);
  process.exit(2);
}

const root = fs.mkdtempSync(path.join(os.tmpdir(), "bench-chat-ui-"));
const provider = await startProvider();
let server: ChildProcess | undefined;
const browser = await chromium.launch({
  executablePath: chromiumPath() ?? "/usr/bin/chromium-headless-shell",
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--disable-background-networking"],
});
try {
  const loadAtStart = load();
  const config = path.join(root, "toolroom.yaml");
  fs.writeFileSync(
    config,
    JSON.stringify({
      sourceRoot: root,
      runsRoot: path.join(root, "runs"),
      llms: { loop: { provider: "openai-compatible", baseURL: provider.baseURL, model: "loop" }, offline: { provider: "offline" } },
      chat: { llm: { type: "ref", ref: "loop" } },
    }),
  );
  const port = await freePort();
  const dbFile = path.join(root, "bench.db");
  const env = { ...process.env, TOOLROOM_CONFIG: config, DATABASE_URL: `file:${dbFile}`, XDG_CONFIG_HOME: path.join(root, "xdg"), NEXT_DIST_DIR: distDir };
  if (spawnSync(process.execPath, ["scripts/migrate.mjs", "deploy"], { env, stdio: "ignore" }).status !== 0) throw new Error("migration failed");
  const seeded = (id: string, count: number) => {
    seedChat(dbFile, { id, title: `${count} messages`, modelRef: "loop" }, longChatMessages(id, count));
    return id;
  };
  const chat500 = ONLY_5000 ? "" : seeded("bench500", 500);
  const chatOverhead = ONLY_5000 ? "" : seeded("bench500overhead", 500);
  const chat5000 = seeded("bench5000", 5000);

  server = spawn(process.execPath, nextStartArgs(process.cwd(), "-H", "127.0.0.1", "-p", String(port)), {
    env,
    stdio: ["ignore", "ignore", "inherit"],
  });
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/api/tools`, server, 120_000);

  // -- the browser --
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript(INIT_SCRIPT);
  const report: string[] = [];
  if (!ONLY_5000) {
    // -- the route's overhead before the first token, interleaved with the provider alone --
    const post = (json: unknown): RequestInit => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(json) });
    const direct = () =>
      timeToFirst(`${provider.baseURL}/chat/completions`, post({ model: "loop", stream: true, messages: [{ role: "user", content: "hi" }] }), FIRST_WORD);
    // The same provider sent the request the route sends for the 500-message chat (≈ 140 KB): what
    // the provider alone needs for that chat's first chunk.
    const directLong = () =>
      timeToFirst(
        `${provider.baseURL}/chat/completions`,
        { method: "POST", headers: { "content-type": "application/json" }, body: provider.longestBody() },
        FIRST_WORD,
      );
    let sent = 0;
    const viaRoute = (chatId: string) => {
      sent++;
      const message = { id: `u${sent}-${Date.now()}`, role: "user", parts: [{ type: "text", text: "hi" }] };
      return timeToFirst(
        `${base}/api/chat`,
        post({ id: chatId, message, trigger: "submit-message", toolMode: "native", supervised: true }),
        '"type":"text-delta"',
      );
    };
    const times = { direct: [] as number[], directLong: [] as number[], fresh: [] as number[], long: [] as number[] };
    for (let i = 0; i < 3; i++) {
      await direct();
      await viaRoute(`warm${i}`);
      await viaRoute(chatOverhead);
    }
    for (let i = 0; i < OVERHEAD_RUNS; i++) {
      const order = [
        async () => times.direct.push(await direct()),
        async () => times.directLong.push(await directLong()),
        async () => times.fresh.push(await viaRoute(`fresh${i}-${Date.now()}`)),
        async () => times.long.push(await viaRoute(chatOverhead)),
      ];
      for (let k = 0; k < order.length; k++) await order[(i + k) % order.length]!();
    }

    // -- the 500-message chat page on the server --
    const pageTimes: number[] = [];
    let htmlBytes = 0;
    for (let i = 0; i < 20; i++) {
      const t0 = performance.now();
      const r = await fetch(`${base}/chat/${chat500}`);
      const html = await r.text();
      if (!r.ok) throw new Error(`GET /chat/${chat500}: ${r.status}`);
      if (i >= 5) pageTimes.push(performance.now() - t0);
      htmlBytes = Buffer.byteLength(html);
    }

    const fcpNew: number[] = [];
    const fcpLong: number[] = [];
    for (let i = 0; i < 5; i++) {
      const a = await context.newPage();
      fcpNew.push(await firstContentfulPaint(a, `${base}/chat`));
      await a.close();
      const b = await context.newPage();
      fcpLong.push(await firstContentfulPaint(b, `${base}/chat/${chat500}`));
      await b.close();
    }
    const streamPage = await context.newPage();
    const fresh = await streamInto(streamPage, `${base}/chat`);
    const long = await streamInto(streamPage, `${base}/chat/${chat500}`);
    await streamPage.close();
    const ms = (x: number) => `${Math.round(x)} ms`;
    const d = median(times.direct);
    const routeNew = median(times.fresh);
    const routeLong = median(times.long);
    const dLong = median(times.directLong);
    report.push(
      `| Streaming ${TOKENS} deltas ${GAP_MS} ms apart | new chat | 500-message chat | goal (500) |`,
      "| --- | ---: | ---: | --- |",
      `| tasks over 100 ms | ${fresh.longTasks} | ${long.longTasks} | 0 |`,
      `| longest task | ${ms(fresh.longest)} | ${ms(long.longest)} | ≤ 100 ms |`,
      `| total blocking time | ${ms(fresh.tbt)} | ${ms(long.tbt)} | < 300 ms |`,
      `| first token on screen after the page got it | ${ms(fresh.firstOnScreen)} | ${ms(long.firstOnScreen)} | ≤ 100 ms |`,
      `| main-thread time per token | ${fresh.perToken.toFixed(2)} ms | ${long.perToken.toFixed(2)} ms (${(long.perToken / fresh.perToken).toFixed(2)}×) | ≤ 1.5× new |`,
      `| main-thread time per screen update | ${fresh.perUpdate.toFixed(1)} ms | ${long.perUpdate.toFixed(1)} ms | — |`,
      `| screen updates (mutation batches) / stream time | ${fresh.updates} / ${fresh.seconds.toFixed(1)} s | ${long.updates} / ${long.seconds.toFixed(1)} s | — |`,
      "",
      `| First text delta (median of ${OVERHEAD_RUNS}, interleaved) | time | over the provider | goal |`,
      "| --- | ---: | ---: | --- |",
      `| provider directly | ${d.toFixed(1)} ms | — | — |`,
      `| route, new chat | ${routeNew.toFixed(1)} ms | ${(routeNew - d).toFixed(1)} ms | ≤ 15 ms |`,
      `| route, 500-message chat | ${routeLong.toFixed(1)} ms | ${(routeLong - d).toFixed(1)} ms | ≤ 15 ms |`,
      `| provider directly, sent the 500-message chat's request (${(provider.longestBody().length / 1024).toFixed(0)} KB) | ${dLong.toFixed(1)} ms | — | — |`,
      `| route, 500-message chat, over that request's own first chunk | — | ${(routeLong - dLong).toFixed(1)} ms | — |`,
      "",
      "| Opening the 500-message chat | figure | goal |",
      "| --- | ---: | --- |",
      `| server time, GET /chat/<id> (median of 15) | ${median(pageTimes).toFixed(1)} ms | ≤ 100 ms |`,
      `| HTML size | ${(htmlBytes / 1024).toFixed(0)} KB | ≤ 150 KB |`,
      `| first contentful paint, new chat / 500-message chat (median of 5) | ${ms(median(fcpNew))} / ${ms(median(fcpLong))} (+${ms(median(fcpLong) - median(fcpNew))}) | ≤ +200 ms |`,
      "",
    );
  }
  if (ONLY_5000) {
    // As in the full run, the browser has seen the app's scripts before (and compiled them into its code cache).
    const warm = await context.newPage();
    for (let i = 0; i < 3; i++) await firstContentfulPaint(warm, `${base}/chat`);
    await warm.close();
  }
  const scrollPage = await context.newPage();
  if (TRACE) await browser.startTracing(scrollPage, { path: TRACE, screenshots: false });
  const big = await openAndScroll(scrollPage, `${base}/chat/${chat5000}`, "Question 0:");
  if (TRACE) await browser.stopTracing();
  await scrollPage.close();

  console.log(
    [
      `node ${process.version}, ${os.cpus().length} CPUs, load average ${loadAtStart} at the start, ${load()} at the end; dist ${distDir}`,
      "",
      ...report,
      `5,000-message chat: opening ${big.open}; scrolling to the first message ${big.scroll}, ${big.screens} wheel steps in ${big.scrollSeconds.toFixed(1)} s${big.reachedTop ? "" : ` (top NOT reached: ${big.rows} rows loaded)`}; goal: none over 100 ms.`,
      ...(process.env.BENCH_TASKS ? big.tasksOver50 : []),
    ].join("\n"),
  );
} finally {
  await browser.close();
  server?.kill("SIGTERM");
  await provider.close();
  fs.rmSync(root, { recursive: true, force: true });
}
