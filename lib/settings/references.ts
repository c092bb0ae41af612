import type { LlmRef, Settings } from "./schema";

/** A setting that names an `llms` entry which does not exist. */
export interface DanglingRef {
  keyPath: string;
  ref: string;
}

/**
 * Every model reference in the settings that names no `llms` entry: chat.llm, search.embeddings,
 * tools.<name>.llm and each link of a fallback chain. Checked at start-up, so a dangling one stops
 * the server instead of breaking the first chat message.
 */
export function danglingModelRefs(settings: Settings): DanglingRef[] {
  const out: DanglingRef[] = [];
  const check = (keyPath: string, ref: string) => {
    if (!Object.hasOwn(settings.llms, ref)) out.push({ keyPath, ref });
  };
  const checkLlm = (keyPath: string, llm: LlmRef | undefined) => {
    if (llm?.type === "ref") check(`${keyPath}.ref`, llm.ref);
  };
  checkLlm("chat.llm", settings.chat.llm);
  checkLlm("search.embeddings", settings.search.embeddings);
  for (const [name, tool] of Object.entries(settings.tools)) checkLlm(`tools.${name}.llm`, tool.llm);
  for (const [name, entry] of Object.entries(settings.llms)) {
    if ("type" in entry) entry.chain.forEach((link, i) => check(`llms.${name}.chain.${i}`, link));
  }
  return out;
}
