import "server-only";
import { compileRule, firstMatch, RuleError, type CompiledRule, type RuleDecider, type RuleSpec } from "@/lib/tools/approval-rules";
import { listApprovalRules, recordRuleHit, type ApprovalRuleRecord } from "@/lib/db/queries";
import type { Settings } from "@/lib/settings/schema";
import { asResolved, settingsRules } from "./settings-rules";

/** A stored UI rule as the matcher reads it. */
export function specOf(record: ApprovalRuleRecord): RuleSpec {
  return {
    name: record.name,
    decision: record.decision,
    ...(record.reason ? { reason: record.reason } : {}),
    ...(record.tool ? { tool: record.tool } : {}),
    ...(record.source ? { source: record.source } : {}),
    ...(record.readonly !== null ? { readonly: record.readonly } : {}),
    ...(record.args ? { args: JSON.parse(record.args) as RuleSpec["args"] } : {}),
  };
}

/** Enabled UI rules for this chat, compiled; one that no longer compiles is skipped and logged (it was checked when saved). */
async function uiRules(chatId: string | undefined): Promise<CompiledRule[]> {
  const rules: CompiledRule[] = [];
  for (const record of await listApprovalRules({ chatId: chatId ?? "", enabledOnly: true })) {
    try {
      rules.push(compileRule(specOf(record), { key: `ui:${record.id}`, origin: "ui" }));
    } catch (error) {
      if (!(error instanceof RuleError)) throw error;
      console.error(`toolroom: approval rule ${record.id} skipped: ${error.message}`);
    }
  }
  return rules;
}

/**
 * The rules that decide calls before a tool's own `confirm.evaluate`, in precedence order:
 * settings (trusted, from the files) first, then this chat's UI rules, then the UI's "everywhere"
 * rules. First match wins, so nothing saved from the UI can loosen a settings rule. Every match is
 * counted, for the Approvals page.
 */
export function ruleDecider(settings: Settings, chatId: string | undefined, now: () => Date = () => new Date()): RuleDecider {
  return async (call) => {
    // Read per decision, never kept: a rule saved a moment ago — on this instance or another one
    // sharing the store — decides the very next call.
    const rules = [...settingsRules(settings), ...(await uiRules(chatId))];
    const verdict = firstMatch(rules, asResolved(settings, call));
    if (verdict) await recordRuleHit(verdict.rule.key, now());
    return verdict;
  };
}
