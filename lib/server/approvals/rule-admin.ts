import "server-only";
import { audit } from "@/lib/server/auth/audit";
import { broadAllow, compileRule, ruleLabel, RuleError, type RuleDecision, type RuleSpec } from "@/lib/tools/approval-rules";
import {
  createApprovalRule,
  deleteApprovalRule,
  getApprovalRule,
  getChat,
  listApprovalRules,
  listChats,
  listRuleHits,
  updateApprovalRule,
  type ApprovalRuleRecord,
} from "@/lib/db/queries";
import { getLoadedSettings } from "@/lib/settings";
import { HttpError } from "@/lib/server/http/http-error";
import { getRegistry } from "@/lib/server/runtime/registry";
import { settingsRuleKey } from "./settings-rules";
import { specOf } from "./rule-book";

/** One rule as Settings → Approvals shows it, in precedence order. */
export interface RuleView {
  key: string;
  /** UI rules only: what edit, disable and delete address. */
  id?: string;
  origin: "settings" | "ui";
  /** Settings rules: the file (or variable) they come from; they are edited there. */
  file?: string;
  name: string;
  decision: RuleDecision;
  reason?: string;
  tool?: string;
  source?: string;
  readonly?: boolean;
  args?: RuleSpec["args"];
  scope: { kind: "everywhere" } | { kind: "chat"; chatId: string; title: string };
  enabled: boolean;
  /** Set for an allow rule that allows every tool, or every call of a confirming tool: the warning shown with it. */
  broad?: string;
  matchCount: number;
  lastMatchedAt: string | null;
}

/** Every rule, settings first (they outrank the UI's), then this-chat rules, then everywhere rules. */
export async function listRuleViews(): Promise<RuleView[]> {
  const loaded = getLoadedSettings();
  const confirming = await confirmingTools();
  const warn = (spec: RuleSpec) => {
    const why = broadAllow(spec, confirming);
    return why ? { broad: why } : {};
  };
  const hits = new Map((await listRuleHits()).map((h) => [h.key, h]));
  const counts = (key: string) => ({ matchCount: hits.get(key)?.matchCount ?? 0, lastMatchedAt: hits.get(key)?.lastMatchedAt.toISOString() ?? null });
  const file = loaded.origin["approvals.rules"] ?? "settings";
  const fromSettings: RuleView[] = loaded.settings.approvals.rules.map((spec) => {
    const key = settingsRuleKey(spec);
    return { ...spec, key, origin: "settings", file, name: ruleLabel(spec), scope: { kind: "everywhere" }, enabled: true, ...warn(spec), ...counts(key) };
  });
  const titles = new Map((await listChats()).map((c) => [c.id, c.title]));
  const fromUi: RuleView[] = (await listApprovalRules()).map((record) => {
    const key = `ui:${record.id}`;
    return {
      ...specOf(record),
      ...warn(specOf(record)),
      key,
      id: record.id,
      origin: "ui",
      name: record.name,
      scope: record.chatId ? { kind: "chat", chatId: record.chatId, title: titles.get(record.chatId) ?? record.chatId } : { kind: "everywhere" },
      enabled: record.enabled,
      ...counts(key),
    };
  });
  return [...fromSettings, ...fromUi];
}

export interface RuleInput extends RuleSpec {
  chatId?: string | null;
  enabled?: boolean;
  /** The person confirmed a broad allow rule (one that allows every tool, or every call of a confirming tool). */
  confirmBroad?: boolean;
}

/** The registry's tools that ask for confirmation, as rules see them. */
async function confirmingTools() {
  return (await getRegistry()).tools
    .filter((t) => t.requiresConfirmation)
    .map((t) => ({ toolName: t.name, sourcePackage: t.sourcePackage, origin: t.origin, readonly: t.readonly, inputSchema: t.inputSchema }));
}

/** A broad allow is saved only with `confirmBroad: true`: it would silently skip every confirmation it covers. */
async function confirmedIfBroad(spec: RuleSpec, confirmBroad: boolean | undefined): Promise<void> {
  const why = broadAllow(spec, await confirmingTools());
  if (why && confirmBroad !== true)
    throw new HttpError(400, `This rule is broad: ${why}. Narrow it (a tool, an argument pattern), or confirm it with "confirmBroad": true.`, "broad_rule");
}

/** A rule that cannot run (a regex RE2 refuses, an unusable schema) is refused when saved, naming the field. */
function checked(spec: RuleSpec): void {
  try {
    compileRule(spec, { key: "ui:new", origin: "ui" });
  } catch (error) {
    if (error instanceof RuleError) throw new HttpError(400, `The rule cannot be used: ${error.message}.`, "invalid_rule");
    throw error;
  }
}

function recordOf(spec: RuleSpec): Pick<ApprovalRuleRecord, "name" | "decision" | "reason" | "tool" | "source" | "readonly" | "args"> {
  return {
    name: ruleLabel(spec),
    decision: spec.decision,
    reason: spec.reason ?? null,
    tool: spec.tool ?? null,
    source: spec.source ?? null,
    readonly: spec.readonly ?? null,
    args: spec.args && Object.keys(spec.args).length ? JSON.stringify(spec.args) : null,
  };
}

export async function saveNewRule(input: RuleInput): Promise<ApprovalRuleRecord> {
  const { chatId, enabled, confirmBroad, ...spec } = input;
  checked(spec);
  await confirmedIfBroad(spec, confirmBroad);
  if (chatId && !(await getChat(chatId))) throw new HttpError(404, `Chat ${chatId} does not exist.`, "unknown_chat");
  const created = await createApprovalRule({ ...recordOf(spec), chatId: chatId ?? null, enabled: enabled ?? true });
  await audit("rule.created", created.id, { ...spec, chatId: chatId ?? null });
  return created;
}

/** Replaces a UI rule's match and decision (the whole rule is sent), or only flips `enabled`. */
export async function changeRule(id: string, input: Partial<RuleInput>): Promise<ApprovalRuleRecord> {
  const existing = await getApprovalRule(id);
  if (!existing) throw new HttpError(404, `No approval rule ${id}.`, "unknown_rule");
  const { chatId, enabled, confirmBroad, ...spec } = input;
  const changes: Partial<ApprovalRuleRecord> = {};
  if (spec.decision) {
    checked(spec as RuleSpec);
    await confirmedIfBroad(spec as RuleSpec, confirmBroad);
    Object.assign(changes, recordOf(spec as RuleSpec));
  }
  if (chatId !== undefined) {
    if (chatId && !(await getChat(chatId))) throw new HttpError(404, `Chat ${chatId} does not exist.`, "unknown_chat");
    changes.chatId = chatId;
  }
  if (enabled !== undefined) changes.enabled = enabled;
  const updated = await updateApprovalRule(id, changes);
  if (!updated) throw new HttpError(404, `No approval rule ${id}.`, "unknown_rule");
  await audit("rule.changed", id, input);
  return updated;
}

export async function removeRule(id: string): Promise<void> {
  if (!(await deleteApprovalRule(id))) throw new HttpError(404, `No approval rule ${id}.`, "unknown_rule");
  await audit("rule.deleted", id);
}
