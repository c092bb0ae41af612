import readline from "node:readline";
import type { Readable, Writable } from "node:stream";
import { answerWithDefaults, checkAnswers, elicitFields, parseTyped, type ElicitFormField, type ElicitValue } from "@/lib/mcp/elicit-form";
import type { ElicitResult, ElicitSchema } from "@/lib/tools/types";

export interface TerminalElicitOptions {
  /** The tool that asks, named when nobody can be asked. */
  toolName: string;
  /** `--yes`: accept the schema's defaults, decline when a required field has none. */
  yes: boolean;
  input?: Readable & { isTTY?: boolean };
  output?: Writable;
}

/**
 * `ctx.elicit` for `toolroom call`: field by field on the terminal (stderr, so stdout stays the
 * result), the schema's default kept on Enter. No terminal and no --yes: nobody can be asked.
 */
export function terminalElicit(options: TerminalElicitOptions): (message: string, schema: ElicitSchema) => Promise<ElicitResult> {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stderr;
  return async (message, schema) => {
    if (options.yes) {
      const answer = answerWithDefaults(schema);
      output.write(
        `toolroom: asked "${message}": ${answer.action === "accept" ? `accepted the defaults (--yes) ${JSON.stringify(answer.content)}` : "declined (--yes, and a required field has no default)"}\n`,
      );
      return answer;
    }
    if (!input.isTTY) {
      // The tool gets not-admitted and may carry on; the person must still learn why nothing was asked.
      output.write(`toolroom: ${options.toolName} asked "${message}" and there is no terminal to ask on (--yes accepts the defaults).\n`);
      return { action: "not-admitted", reason: "no terminal to ask on (use --yes to accept the defaults)" };
    }
    const rl = readline.createInterface({ input, terminal: false });
    // The iterator buffers lines typed (or pasted) ahead of their prompt; `question` would drop them.
    const lines = rl[Symbol.asyncIterator]();
    const ask = async (prompt: string) => {
      output.write(prompt);
      const line = await lines.next();
      if (line.done) throw new EndOfInput();
      return line.value;
    };
    try {
      return await askFields(ask, output, message, elicitFields(schema));
    } catch (error) {
      if (error instanceof EndOfInput) return { action: "cancel" };
      throw error;
    } finally {
      rl.close();
    }
  };
}

class EndOfInput extends Error {}

async function askFields(ask: (prompt: string) => Promise<string>, output: Writable, message: string, fields: ElicitFormField[]): Promise<ElicitResult> {
  output.write(`\nThe tool asks: ${message}\n(Enter keeps the value in brackets; "-" clears it.)\n`);
  const answers: Record<string, ElicitValue> = {};
  for (const field of fields) {
    for (;;) {
      output.write(describe(field));
      const typed = await ask(`${field.label}${field.required ? " *" : ""}${field.default !== undefined ? ` [${shown(field, field.default)}]` : ""}: `);
      const value = typed.trim() === "-" ? undefined : typed.trim() === "" ? field.default : parseTyped(field, typed);
      const checked = checkAnswers([field], value === undefined ? {} : { [field.name]: value });
      if (checked.ok) {
        if (value !== undefined) answers[field.name] = value as ElicitValue;
        break;
      }
      output.write(`  ${checked.errors[field.name]}\n`);
    }
  }
  const send = (await ask(`Send ${JSON.stringify(answers)}? [Y]es / [n]o, decline / [c]ancel: `)).trim().toLowerCase();
  if (send === "c" || send === "cancel") return { action: "cancel" };
  if (send === "n" || send === "no") return { action: "decline" };
  return { action: "accept", content: answers };
}

function describe(field: ElicitFormField): string {
  const lines = field.description ? [`  ${field.description}`] : [];
  if (field.kind === "choice" || field.kind === "choices")
    lines.push(
      ...field.options.map((o, i) => `  ${i + 1}. ${o.label}${o.label !== o.value ? ` (${o.value})` : ""}`),
      ...(field.kind === "choices" ? ["  (several: separate with commas)"] : []),
    );
  if (field.kind === "boolean") lines.push("  (y/n)");
  return lines.length ? `${lines.join("\n")}\n` : "";
}

function shown(field: ElicitFormField, value: ElicitValue): string {
  const label = (v: string) => field.options.find((o) => o.value === v)?.label ?? v;
  if (Array.isArray(value)) return value.map(label).join(", ");
  return typeof value === "string" ? label(value) : String(value);
}
