import crypto from "node:crypto";
import { canonicalJson } from "@/lib/tools/canonical-json";
import { sourceRootOf } from "@/lib/settings";
import { normalisePathArgs, pathArgNames } from "@/lib/sandbox/path-args";
import { compileRule, firstMatch, type CompiledRule, type RuleCall, type RuleDecider } from "@/lib/tools/approval-rules";
import type { Settings } from "@/lib/settings/schema";

const compiled = new WeakMap<Settings, CompiledRule[]>();

/** A settings rule's key: its content, so its match count follows the rule, not its position in the file. */
export function settingsRuleKey(spec: unknown): string {
  return `settings:${crypto.createHash("sha256").update(canonicalJson(spec)).digest("hex").slice(0, 16)}`;
}

/** The trusted rules of `approvals.rules`, compiled once per loaded settings (the schema already checked their patterns). */
export function settingsRules(settings: Settings): CompiledRule[] {
  let rules = compiled.get(settings);
  if (!rules) {
    rules = settings.approvals.rules.map((spec) => compileRule(spec, { key: settingsRuleKey(spec), origin: "settings" }));
    compiled.set(settings, rules);
  }
  return rules;
}

/**
 * The call as rules see it: its path arguments as the sandbox resolves them in the source root, so
 * `./private/x`, `sub/../private/x` and the absolute spelling all meet a rule on `^private/`.
 */
export function asResolved(settings: Settings, call: RuleCall): RuleCall {
  const names = call.inputSchema ? pathArgNames(call.inputSchema) : [];
  return names.length ? { ...call, input: normalisePathArgs(names, call.input, sourceRootOf(settings)) } : call;
}

/** Settings rules only: what `toolroom call` applies (rules saved from the UI live in the server's database). */
export function settingsRuleDecider(settings: Settings): RuleDecider {
  return async (call) => firstMatch(settingsRules(settings), asResolved(settings, call));
}
