/**
 * Random action sequences for the approvals property test. Each next action is drawn from a seeded
 * PRNG given what the person sees, so a printed seed replays the same sequence.
 */

import { mulberry32 } from "@/lib/testing/random";

/** The two confirming tools of the test plugin: grants are per tool, so one can be granted alone. */
export const TOOLS = ["tally", "mark"] as const;
export type ToolName = (typeof TOOLS)[number];

/** A person's answer to one approval dialog. */
export interface Decision {
  approved: boolean;
  /** "Approve for this chat"; sent with a denial too, where it must not grant. */
  grant: boolean;
  reason?: string;
}

export type Action =
  /** The user sends a message that makes the model call these tools, in one step, with fresh arguments. */
  | { kind: "call"; tools: ToolName[] }
  /**
   * The dialogs on screen are answered, the i-th with decisions[i]. The browser sends only once all
   * are answered; `partial` leaves the last one out, as a client that does not wait would.
   */
  | { kind: "answer"; decisions: Decision[]; partial: boolean }
  /** All dialogs approved, but the arguments of the one at `target` (0 ≤ target < 1) were changed. */
  | { kind: "edit"; target: number }
  /** All dialogs approved, the one at `target` under an approval id the server never issued. */
  | { kind: "forge"; target: number }
  /** The clock moves on; with `seconds` near the timeout, around the expiry edge. */
  | { kind: "wait"; seconds: number }
  /** The background sweeper runs once. */
  | { kind: "sweep" }
  /** The browser drops its state and rebuilds from the stored chat. */
  | { kind: "reload" }
  /** An earlier accepted approval response is sent again; `pick` chooses which (0 ≤ pick < 1). */
  | { kind: "replay"; pick: number }
  /** The chat's supervised switch is flipped. */
  | { kind: "supervise" }
  /** "Approve for this chat" is revoked for one tool. */
  | { kind: "revoke"; tool: ToolName }
  /** All dialogs approved, the one at `target` with arguments the person edited in the dialog (sent beside the answer). */
  | { kind: "approveEdited"; target: number }
  /** A rule for this chat is saved from the UI: later calls of the tool run (allow) or are refused (deny) without a dialog. */
  | { kind: "rule"; tool: ToolName; decision: "allow" | "deny" };

export interface Sequence {
  seed: number;
  /** Draws the rest of the sequence; seeded, so a printed seed replays it. */
  random: () => number;
  supervised: boolean;
  length: number;
}

/** What the generator may look at: the screen a person would act on, not the server's state. */
export interface Screen {
  /** Approval dialogs showing (some possibly for requests that expired meanwhile). */
  approvalsShown: number;
  /** Tools approved "for this chat", as the chat page lists them. */
  granted: number;
  /** Approval responses the server accepted so far, which a replay can resend. */
  answered: number;
}

type Weights = Partial<Record<Action["kind"], number>>;

// With dialogs showing, mostly answer them (or let them expire); without, mostly send the next
// message. Every kind keeps some weight in both, so out-of-turn actions are exercised too.
function weights(screen: Screen): Weights {
  const common: Weights = { reload: 1, supervise: 1, replay: screen.answered ? 1 : 0, revoke: screen.granted ? 1 : 0.2 };
  if (screen.approvalsShown) return { ...common, answer: 8, edit: 1.5, forge: 1.5, approveEdited: 1, call: 1, wait: 3, sweep: 2 };
  return { ...common, call: 6, answer: 0.5, wait: 2, sweep: 1, rule: 0.5 };
}

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

function decision(random: () => number): Decision {
  const approved = random() < 0.6;
  const grant = random() < (approved ? 0.35 : 0.2);
  return { approved, grant, ...(!approved && random() < 0.5 ? { reason: "not now" } : {}) };
}

/** The next action, drawn from `random`: the same seed and the same screens give the same actions. */
export function nextAction(random: () => number, screen: Screen, timeoutSeconds: number): Action {
  const table = Object.entries(weights(screen)) as [Action["kind"], number][];
  let roll = random() * table.reduce((sum, [, weight]) => sum + weight, 0);
  const kind = table.find(([, weight]) => (roll -= weight) < 0)?.[0] ?? "call";
  switch (kind) {
    case "call":
      return { kind, tools: Array.from({ length: random() < 0.3 ? 2 : 1 }, () => pick(random, TOOLS)) };
    case "answer":
      return { kind, decisions: [decision(random), decision(random)], partial: random() < 0.25 };
    case "edit":
    case "forge":
    case "approveEdited":
      return { kind, target: random() };
    case "rule":
      return { kind, tool: pick(random, TOOLS), decision: random() < 0.5 ? "allow" : "deny" };
    case "wait":
      // Exactly at expiry counts as expired: the sweep that runs before each request times it out.
      return { kind, seconds: pick(random, [1, timeoutSeconds - 1, timeoutSeconds, timeoutSeconds + 1]) };
    case "replay":
      return { kind, pick: random() };
    case "revoke":
      return { kind, tool: pick(random, TOOLS) };
    default:
      return { kind };
  }
}

/** One sequence: whether the chat starts supervised, and how many actions follow its first call (3–8). */
export function startSequence(seed: number): Sequence {
  const random = mulberry32(seed);
  return { seed, random, supervised: random() < 0.85, length: 3 + Math.floor(random() * 6) };
}
