/**
 * Text-protocol parser throughput: mixed prose + calls in random 1–64 byte chunks.
 * Targets: ≥ 50 MB/s, and 10 MB taking ≤ 12× the time of 1 MB (linear, no re-scanning).
 * Run: npx tsx --expose-gc bench/parser.ts (a clean heap before each timed run)
 */
import { appendFileSync, existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { formatCall } from "../lib/chat/text-protocol/format";
import { createTextCallParser } from "../lib/chat/text-protocol/parser";
import { randomChunks, rng } from "../lib/testing/text-protocol-chunks";
import { TEXT_PROTOCOLS, type ParseEvent, type TextProtocol } from "../lib/chat/text-protocol/types";

const MB = 1024 * 1024;
const TOOLS = ["list_files", "read_file", "grep_code", "search_code"];

const WORDS = "the parser holds back text that may start a call and emits prose as soon as it is certain while calls split across chunks stay whole".split(" ");

function prose(random: () => number, length: number): string {
  let out = "";
  while (out.length < length) {
    const roll = random();
    if (roll < 0.05) out += FENCED_EXAMPLES;
    else if (roll < 0.1) out += 'Use `ACTION: read_file(path="x")` to read; mid-line ACTION:, <tool_call>, <function_calls> and [TOOL_CALLS] stay prose.\n';
    else if (roll < 0.12) out += '{"debug": true, "level": 3} is a config line, not a call.\n';
    else if (roll < 0.2) out += "\n";
    else out += `${WORDS[Math.floor(random() * WORDS.length)]} `;
  }
  return out;
}

/** Every protocol's call syntax in a fence (opened at a line start): examples, which each parser must pass as prose. */
const FENCED_EXAMPLES = `\n\`\`\`\n${TEXT_PROTOCOLS.map((protocol) => formatCall(protocol, "read_file", { path: "x" })).join("\n")}\n\`\`\`\n`;

/** One call (two for the protocols that take several per reply) with quotes, brackets and the closing syntax in its strings. */
function call(protocol: TextProtocol, random: () => number): string {
  const path = `lib/${Math.floor(random() * 1000)}/file "quoted" (x).ts`;
  if (protocol === "action") return `ACTION: read_file(path=${JSON.stringify(path)}, lines=[1, 2, 3], opts={"deep": {"k": [true, null]}})`;
  const input = { path, note: "</tool_call> </invoke> ]}", lines: [1, 2, 3] };
  const one = formatCall(protocol, "read_file", input);
  return protocol === "json" ? one : `${one}\n${formatCall(protocol, "grep_code", { pattern: "a\\(b\\)" })}`;
}

/** Replies of 2–8 KB of prose, each ending in one call, until `size` characters. */
function replies(protocol: TextProtocol, size: number, seed: number): string[][] {
  const random = rng(seed);
  const out: string[][] = [];
  let total = 0;
  while (total < size) {
    const reply = `${prose(random, 2048 + Math.floor(random() * 6144))}\n${call(protocol, random)}\nThanks.`;
    total += reply.length;
    out.push(randomChunks(reply, random));
  }
  return out;
}

/** One reply of `size` characters of prose with a call only at the very end. */
function oneStream(protocol: TextProtocol, size: number, seed: number): string[][] {
  const random = rng(seed);
  return [randomChunks(`${prose(random, size)}\n${call(protocol, random)}`, random)];
}

function countCalls(events: readonly ParseEvent[]): number {
  let calls = 0;
  for (let i = 0; i < events.length; i++) if (events[i]?.type === "call") calls++;
  return calls;
}

/** A clean heap before each timed run (when node runs with --expose-gc), so one run's garbage is not billed to the next. */
const collect = (globalThis as { gc?: () => void }).gc ?? (() => {});

/**
 * Reads a buffer larger than the CPU caches before each timed run: a 1 MB input would otherwise
 * stay cache-resident across repeats while a 10 MB one cannot, and the ratio would measure the
 * cache, not the parser.
 */
const evictor = Buffer.alloc(64 * MB, 1);
let evictSink = 0;
function evictCaches(): void {
  for (let i = 0; i < evictor.length; i += 64) evictSink += evictor[i]!;
}

function run(protocol: TextProtocol, input: string[][]): { ms: number; chars: number; calls: number } {
  let chars = 0;
  let calls = 0;
  collect();
  evictCaches();
  const start = performance.now();
  for (const chunks of input) {
    const parser = createTextCallParser(protocol, TOOLS);
    for (const chunk of chunks) {
      chars += chunk.length;
      calls += countCalls(parser.push(chunk));
    }
    calls += countCalls(parser.end());
  }
  return { ms: performance.now() - start, chars, calls };
}

type Timing = { ms: number; chars: number; calls: number };

/**
 * The minimum time of each input over `runs` rounds, the inputs taking turns within a round: on a
 * shared machine a burst of other load then slows every size alike instead of all runs of one.
 */
function bestInterleaved(protocol: TextProtocol, inputs: readonly string[][][], runs: number): Timing[] {
  for (const input of inputs) run(protocol, input);
  const best = inputs.map((input) => run(protocol, input));
  for (let round = 1; round < runs; round++) {
    inputs.forEach((input, i) => {
      const next = run(protocol, input);
      if (next.ms < best[i]!.ms) best[i] = next;
    });
  }
  return best;
}

/** Chunks as a network stream delivers them: separate strings, not views into one big string. */
function flat(input: string[][]): string[][] {
  return input.map((chunks) => chunks.map((chunk) => Buffer.from(chunk).toString()));
}

const rows: string[] = [];
let ok = true;
for (const shape of ["replies", "one stream"] as const) {
  for (const protocol of TEXT_PROTOCOLS) {
    const make = shape === "replies" ? replies : oneStream;
    // All three inputs are alive before any is timed: the garbage collector then walks the same
    // heap during every run, and the 1 MB run is not measured on a heap ten times smaller.
    const inputs = [flat(make(protocol, MB, 1)), flat(make(protocol, 10 * MB, 2)), flat(make(protocol, 20 * MB, 3))] as const;
    // The minimum over several runs is the least noisy estimate on a shared machine.
    const [small, large, huge] = bestInterleaved(protocol, inputs, 15) as [Timing, Timing, Timing];
    const mbps = large.chars / MB / (large.ms / 1000);
    const ratio = large.ms / small.ms;
    const doubling = huge.ms / large.ms;
    const pass = mbps >= 50 && ratio <= 12;
    ok &&= pass;
    const row = `| ${shape} | ${protocol} | ${large.calls} | ${small.ms.toFixed(1)} | ${large.ms.toFixed(1)} | ${huge.ms.toFixed(1)} | ${mbps.toFixed(0)} | ${ratio.toFixed(2)}× | ${doubling.toFixed(2)}× | ${pass ? "pass" : "FAIL"} |`;
    rows.push(row);
    console.log(
      `${shape.padEnd(10)} ${protocol.padEnd(6)} 1 MB ${small.ms.toFixed(1)} ms, 10 MB ${large.ms.toFixed(1)} ms (${large.calls} calls), 20 MB ${huge.ms.toFixed(1)} ms: ${mbps.toFixed(0)} MB/s, 10 MB / 1 MB = ${ratio.toFixed(2)}×, 20 MB / 10 MB = ${doubling.toFixed(2)}× ${pass ? "ok" : "FAIL"}`,
    );
  }
}

const results = path.join(import.meta.dirname, "RESULTS.md");
if (!existsSync(results)) writeFileSync(results, "# Benchmarks\n");
appendFileSync(
  results,
  [
    "",
    "## Text-protocol parser",
    "",
    `\`npx tsx --expose-gc bench/parser.ts\` — ${new Date().toISOString().slice(0, 10)}, Node ${process.version}. Mixed prose (with fenced and inline`,
    "mentions of the call syntax) and calls, fed in random 1–64 byte chunks as separate strings; minimum of 15 rounds in which",
    "the 1 / 10 / 20 MB inputs take turns (a burst of other load slows every size alike), after a warm-up, run with",
    "`--expose-gc` (a collection before each run), each run after reading a 64 MB buffer so no input starts cache-resident (a 1 MB",
    "input otherwise stays in the CPU caches across repeats and 10 MB cannot), with all three inputs in memory during every",
    "run (the same heap for the garbage collector to walk). 20 MB / 10 MB near 2×: the parser is linear.",
    '"replies": 2–8 KB replies each ending in a call (a parser per reply); "one stream": a single reply with the call at the end.',
    "Every protocol (issue #22: hermes, xml, llama and mistral joined action and json): the prose carries each protocol's",
    "syntax in fences, inline and mid-line, and a JSON line that is not a call; the several-calls protocols end each reply in two calls.",
    "Targets: ≥ 50 MB/s on 10 MB; 10 MB time ≤ 12× the 1 MB time.",
    "",
    "| shape | protocol | calls (10 MB) | 1 MB ms | 10 MB ms | 20 MB ms | MB/s (10 MB) | 10 MB / 1 MB | 20 MB / 10 MB | |",
    "|---|---|---|---|---|---|---|---|---|---|",
    ...rows,
    "",
  ].join("\n"),
);
if (!ok) process.exitCode = 1;
if (evictSink < 0) console.log(evictSink);
