import "server-only";
import { generateId, type Telemetry } from "ai";
import { knownSecrets, scrubText } from "@/lib/security/secrets";
import type { Settings } from "@/lib/settings/schema";
import { otlpIntegration } from "@/lib/trace/otlp";
import { createTurnTrace, type TurnTrace } from "@/lib/trace/recorder";

/** The HTTP endpoint a settings model is called at, for the raw view's curl command (a fallback chain: its first link). */
export function providerEndpoint(settings: Settings, ref: string, seen: string[] = []): string | undefined {
  const entry = settings.llms[ref];
  if (!entry || seen.includes(ref)) return undefined;
  if ("type" in entry) return entry.chain[0] ? providerEndpoint(settings, entry.chain[0], [...seen, ref]) : undefined;
  const base = (url: string) => url.replace(/\/+$/, "");
  switch (entry.provider) {
    case "openai":
      return `${base(entry.baseURL ?? "https://api.openai.com/v1")}/responses`;
    case "anthropic":
      return `${base(entry.baseURL ?? "https://api.anthropic.com/v1")}/messages`;
    case "openai-compatible":
      return entry.baseURL ? `${base(entry.baseURL)}/chat/completions` : undefined;
    default:
      return undefined;
  }
}

const secretsOf = new WeakMap<Settings, string[]>();

/** A trace for one chat turn, masking every secret this process knows before anything is kept. */
export function turnTrace(settings: Settings, options: { modelRef: string; modelId: string; toolMode: "native" | "text" }): TurnTrace {
  // Settings are replaced, never changed, on a reload; the environment is the process's own.
  let secrets = secretsOf.get(settings);
  if (!secrets) secretsOf.set(settings, (secrets = knownSecrets(settings)));
  return createTurnTrace({
    turnId: generateId(),
    model: options.modelId,
    toolMode: options.toolMode,
    protocol: settings.chat.textProtocol,
    url: providerEndpoint(settings, options.modelRef),
    scrub: (text) => scrubText(text, secrets),
  });
}

/** The OTLP export's integration when `telemetry.otlpEndpoint` is set. */
export async function otlpTelemetry(settings: Settings): Promise<Telemetry[]> {
  return settings.telemetry.otlpEndpoint ? [await otlpIntegration(settings.telemetry.otlpEndpoint)] : [];
}
