import type { BasicTracerProvider } from "@opentelemetry/sdk-trace-base";
import type { Telemetry } from "ai";

interface Exporting {
  endpoint: string;
  provider: BasicTracerProvider;
  integration: Telemetry;
}

/** One tracer provider per process and endpoint: spans are batched and sent in the background. */
let current: Promise<Exporting> | undefined;

/**
 * The AI SDK's OpenTelemetry integration (GenAI spans: `invoke_agent`, `step`, `chat`,
 * `execute_tool`) on its own tracer provider, exporting to an OTLP/HTTP collector (Langfuse,
 * Jaeger, Phoenix). Its own provider, not the global one, so nothing else in the process is
 * traced. The OpenTelemetry packages load only when an endpoint is configured.
 */
export async function otlpIntegration(endpoint: string): Promise<Telemetry> {
  const existing = await current;
  if (existing?.endpoint === endpoint) return existing.integration;
  void existing?.provider.shutdown();
  current = (async () => {
    const [{ OpenTelemetry }, { OTLPTraceExporter }, { BasicTracerProvider, BatchSpanProcessor }] = await Promise.all([
      import("@ai-sdk/otel"),
      import("@opentelemetry/exporter-trace-otlp-http"),
      import("@opentelemetry/sdk-trace-base"),
    ]);
    const provider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: endpoint }))] });
    return { endpoint, provider, integration: new OpenTelemetry({ tracer: provider.getTracer("toolroom") }) };
  })();
  return (await current).integration;
}

/** Sends what is batched now: the CLI calls it before it exits, or its last spans would be lost. */
export async function flushOtlp(): Promise<void> {
  await (await current)?.provider.forceFlush();
}
