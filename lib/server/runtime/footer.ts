import "server-only";
import { modelLabel } from "@/lib/chat/models";
import { describeDatabase } from "@/lib/db/url";
import { getSettings } from "@/lib/settings";

/** What the footer line shows: the chat's default model and the database in use. */
export function footerFacts(): { model: string; database: string } {
  const settings = getSettings();
  const llm = settings.chat.llm;
  const entry = llm.type === "ref" ? settings.llms[llm.ref] : undefined;
  const model = llm.type === "custom" ? `${llm.provider}/${llm.model ?? "default"}` : entry ? modelLabel(llm.ref, entry) : `${llm.ref} (not configured)`;
  return { model, database: describeDatabase() };
}
