import { OpenTelemetry } from "@ai-sdk/otel";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { BasicTracerProvider, BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import type { Telemetry } from "ai";

interface Exporting {
  endpoint: string;
  provider: BasicTracerProvider;
  integration: Telemetry;
}

/** One tracer provider per process and endpoint: spans are batched and sent in the background. */
let current: Exporting | undefined;

/**
 * The AI SDK's OpenTelemetry integration (GenAI spans: `invoke_agent`, `step`, `chat`,
 * `execute_tool`) on its own tracer provider, exporting to an OTLP/HTTP collector (Langfuse,
 * Jaeger, Phoenix). Its own provider, not the global one, so nothing else in the process is traced.
 */
export function otlpIntegration(endpoint: string): Telemetry {
  if (current?.endpoint === endpoint) return current.integration;
  void current?.provider.shutdown();
  const provider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: endpoint }))] });
  const integration = new OpenTelemetry({ tracer: provider.getTracer("toolroom") });
  current = { endpoint, provider, integration };
  return integration;
}

/** Sends what is batched now (tests; a server about to stop). */
export async function flushOtlp(): Promise<void> {
  await current?.provider.forceFlush();
}
