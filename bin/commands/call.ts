import fs from "node:fs";
import readline from "node:readline/promises";
import type { Command } from "commander";
import { loadRegistry } from "@/lib/server/runtime/registry";
import { createToolContext } from "@/lib/server/runtime/tool-context";
import { ruleCallOf, ruleDecisionText } from "@/lib/tools/approval-rules";
import { needsConfirmation, notAdmittedText } from "@/lib/tools/confirm";
import { settingsRuleDecider } from "@/lib/server/approvals/settings-rules";
import { invoke } from "@/lib/tools/invoke";
import { validateInput } from "@/lib/tools/schema";
import { CliExit, cliSettings } from "../context";
import { terminalElicit } from "./elicit-prompt";
import { stepUpAfterRefusal } from "./mcp-login";
import { out } from "../stdout";

/** Exit code for a call that needed a human and did not get a yes. */
export const EXIT_NOT_ADMITTED = 3;

export function registerCall(program: Command): void {
  program
    .command("call <name>")
    .description("run one tool through the same path as chat, and print its result")
    .option("--input <json>", "the tool's input as a JSON object", "{}")
    .option("--input-file <path>", "read the input JSON from a file")
    .option("-y, --yes", "approve a call that needs confirmation, and accept the defaults of a form the tool asks for (for scripts)")
    .action(async (name: string, options: { input: string; inputFile?: string; yes?: boolean }) => {
      const { settings } = cliSettings(program.opts<{ config?: string }>().config);
      const input = parseInput(options.inputFile ? fs.readFileSync(options.inputFile, "utf8") : options.input);
      let registry = await loadRegistry({ settings, log: () => {} });
      // MCP server processes are stopped before the command returns (or exits with a code).
      try {
        const registered = registry.get(name);
        if (!registered) {
          // The tool may belong to an MCP server that did not start: say so rather than only "no tool".
          const failed = registry.diagnostics.filter((d) => d.kind === "source-failed").map((d) => d.package);
          const why = failed.length ? ` (${failed.join(", ")} failed to start; \`toolroom tools\` says why)` : "";
          throw new CliExit(2, `toolroom: no tool named "${name}"${why}. Run \`toolroom tools\` to list them.`);
        }
        if (!registered.enabled) throw new CliExit(2, `toolroom: tool "${name}" is disabled in settings (tools.${name}.enabled).`);

        const controller = new AbortController();
        process.once("SIGINT", () => controller.abort());
        const elicit = terminalElicit({ toolName: name, yes: options.yes === true });
        // A form nobody could answer is a call that needed a human and did not get one, as a confirmation.
        let unanswered = false;
        const ctx = {
          ...createToolContext({ settings, toolName: name, modelId: null, signal: controller.signal }),
          elicit: async (...args: Parameters<typeof elicit>) => {
            const answer = await elicit(...args);
            unanswered ||= answer.action === "not-admitted";
            return answer;
          },
        };
        const tool = registered.resolve(ctx);
        // Input the tool's schema refuses goes straight to invoke's invalid-input error (exit 1): no
        // rule or person is asked about a call that cannot run.
        const valid = (await validateInput(tool.input, input)).ok;
        // The settings' approval rules decide first, as in chat: allow needs no --yes, deny refuses even with it.
        const verdict = valid ? await settingsRuleDecider(settings)(ruleCallOf(registered, input, name)) : undefined;
        if (verdict?.decision === "deny") {
          out(`${notAdmittedText(tool, input, { kind: "denied", reason: verdict.reason ?? ruleDecisionText(verdict) })}\n`);
          throw new CliExit(EXIT_NOT_ADMITTED, `toolroom: ${ruleDecisionText(verdict)}`);
        }
        if (verdict?.decision === "allow") process.stderr.write(`toolroom: ${ruleDecisionText(verdict)}\n`);
        else if (valid && (verdict?.decision === "ask" || (await needsConfirmation(tool, input, ctx)))) {
          const decision: Decision = options.yes ? { approved: true } : await ask(name, registered.sourcePackage, input);
          if (!decision.approved) {
            out(`${notAdmittedText(tool, input, decision.why)}\n`);
            throw new CliExit(EXIT_NOT_ADMITTED);
          }
        }
        const started = new Date();
        let result = await invoke(tool, input, ctx, { guardFile: settings.aiAssistedGuardFile });
        if (result.isError && (await stepUpAfterRefusal(settings, registered.sourcePackage, started))) {
          // Signed in again with more scope: the call goes once more, on a fresh connection with the new token.
          await registry.close?.();
          registry = await loadRegistry({ settings, log: () => {} });
          const again = registry.get(name);
          if (again) result = await invoke(again.resolve(ctx), input, ctx, { guardFile: settings.aiAssistedGuardFile });
        }
        out(`${result.text}\n`);
        if (unanswered) throw new CliExit(EXIT_NOT_ADMITTED);
        if (result.isError) throw new CliExit(1);
      } finally {
        await registry.close?.();
      }
    });
}

function parseInput(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error("expected a JSON object");
    return value;
  } catch (error) {
    throw new CliExit(2, `toolroom: --input is not a JSON object: ${(error as Error).message}`);
  }
}

type Decision = { approved: true; why?: undefined } | { approved: false; why: { kind: "denied"; reason?: string } | { kind: "unsupervised" } };

/** y/N on a terminal; with no terminal the call is not admitted. */
async function ask(name: string, sourcePackage: string, input: unknown): Promise<Decision> {
  if (!process.stdin.isTTY) return { approved: false, why: { kind: "unsupervised" } };
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
  try {
    process.stderr.write(`${name} [${sourcePackage}] needs your approval.\nArguments: ${JSON.stringify(input, null, 2)}\n`);
    const answer = (await rl.question("Run it? [y/N] ")).trim().toLowerCase();
    return answer === "y" || answer === "yes" ? { approved: true } : { approved: false, why: { kind: "denied" } };
  } finally {
    rl.close();
  }
}
