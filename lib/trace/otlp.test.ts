import http from "node:http";
import type { AddressInfo } from "node:net";
import { stepCountIs, streamText, tool } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createOfflineModel } from "@/lib/chat/offline-model";
import { flushOtlp, otlpIntegration } from "./otlp";

// A collector on loopback that keeps every OTLP/HTTP request body it receives.
const bodies: { url: string; body: string }[] = [];
let server: http.Server;
let endpoint: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      bodies.push({ url: req.url ?? "", body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("OTLP export", () => {
  it("sends the turn's spans (agent, step, model call, tool) to the collector", async () => {
    const tools = { list_files: tool({ description: "List files.", inputSchema: z.object({ path: z.string() }), execute: async () => "a.ts" }) };
    const result = streamText({
      model: createOfflineModel(),
      tools,
      stopWhen: stepCountIs(3),
      prompt: "list files in lib",
      telemetry: { integrations: [await otlpIntegration(endpoint)] },
    });
    await result.consumeStream();
    await flushOtlp();
    const sent = bodies.filter((b) => b.url === "/v1/traces").map((b) => b.body);
    expect(sent.length).toBeGreaterThan(0);
    const names = [...sent.join("\n").matchAll(/"name":"([^"]+)"/g)].map((m) => m[1]);
    expect(names).toEqual(expect.arrayContaining(["execute_tool list_files", "step 1", "step 2"]));
    expect(names.some((n) => n?.startsWith("invoke_agent"))).toBe(true);
    expect(names.some((n) => n?.startsWith("chat "))).toBe(true);
  });
});
