import "server-only";
import { describeDatabase } from "@/lib/db/url";
import { getSettings } from "@/lib/settings";

/** What the footer line shows: the chat's default model and the database in use. */
export function footerFacts(): { model: string; database: string } {
  const settings = getSettings();
  const llm = settings.chat.llm;
  const model = llm.type === "ref" ? describeLlm(llm.ref, settings.llms[llm.ref]) : `${llm.provider}/${llm.model ?? "default"}`;
  return { model, database: describeDatabase() };
}

function describeLlm(ref: string, entry: (ReturnType<typeof getSettings>["llms"])[string] | undefined): string {
  if (!entry) return `${ref} (not configured)`;
  if ("type" in entry) return `${ref} (fallback: ${entry.chain.join(" → ")})`;
  if (entry.provider === "offline") return "Offline (scripted)";
  return `${ref} (${entry.provider}/${entry.model ?? "default"})`;
}
