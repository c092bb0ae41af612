import type { Command } from "commander";
import { audit } from "@/lib/server/auth/audit";
import { addUser, createToken, listTokens, listUsers, removeUser, revokeToken, setRole } from "@/lib/server/auth/people";
import { ROLES } from "@/lib/server/auth/roles";
import { HttpError } from "@/lib/server/http/http-error";
import { CliExit, cliSettings } from "../context";
import { out } from "../stdout";

/** The CLI is the server's machine: whoever runs it there may manage people; the log says "cli". */
const CLI = "cli";

async function refusalsAsExit<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof HttpError) throw new CliExit(error.status === 400 ? 2 : 1, `toolroom: ${error.message}`);
    throw error;
  }
}

/** The password piped in (`--password-stdin`): never an argument, which `ps` and shell history would show. */
async function passwordFromStdin(): Promise<string> {
  if (process.stdin.isTTY)
    throw new CliExit(2, "toolroom: --password-stdin reads the password from a pipe: `printf '%s' \"$PASSWORD\" | toolroom users add …`.");
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  // One trailing newline is the shell's (echo), not the password's.
  return Buffer.concat(chunks)
    .toString("utf8")
    .replace(/\r?\n$/, "");
}

const day = (date: Date | null) => (date ? date.toISOString().slice(0, 16).replace("T", " ") : "never");

export function registerUsers(program: Command): void {
  const settings = () => cliSettings(program.opts<{ config?: string }>().config);
  const users = program.command("users").description("people who may sign in to this Toolroom (when sign-in is required), and their roles");
  users
    .command("add <email>")
    .description("add a person; the password is read from stdin")
    .requiredOption("--role <role>", `one of ${ROLES.join(", ")}`)
    .requiredOption("--password-stdin", "read the password from stdin (required: a password is never an argument)")
    .action(async (email: string, options: { role: string }) => {
      settings();
      const password = await passwordFromStdin();
      const person = await refusalsAsExit(() => addUser({ email, role: options.role, password }));
      await audit("user.added", person.email, { role: person.role }, CLI);
      out(`Added ${person.email} (${person.role}).\n`);
    });
  users
    .command("list")
    .description("everyone who may sign in, with role and token count")
    .option("--json", "as JSON")
    .action(async (options: { json?: boolean }) => {
      settings();
      const rows = await listUsers();
      if (options.json) return void out(`${JSON.stringify(rows, null, 2)}\n`);
      if (rows.length === 0) return void out("No users yet: `toolroom users add EMAIL --role admin --password-stdin`.\n");
      for (const u of rows) out(`${u.email.padEnd(32)} ${u.role.padEnd(7)} ${String(u.tokens).padStart(2)} token(s)  since ${day(u.createdAt)}\n`);
    });
  users
    .command("set-role <email> <role>")
    .description(`change a person's role (${ROLES.join(", ")}); it holds at their next request`)
    .action(async (email: string, role: string) => {
      settings();
      await refusalsAsExit(() => setRole(email, role));
      await audit("user.role", email.trim().toLowerCase(), { role }, CLI);
      out(`${email.trim()} is now ${role}.\n`);
    });
  users
    .command("remove <email>")
    .description("remove a person with their sessions and tokens (their chats stay)")
    .action(async (email: string) => {
      settings();
      await refusalsAsExit(() => removeUser(email));
      await audit("user.removed", email.trim().toLowerCase(), undefined, CLI);
      out(`Removed ${email.trim()}.\n`);
    });

  const tokens = program.command("tokens").description("API tokens: Authorization: Bearer <token> on the API and /api/mcp, acting as their person");
  tokens
    .command("create <email>")
    .description("make a token for a person; it is printed once and stored hashed")
    .requiredOption("--name <name>", "what the token is for (unique per person)")
    .action(async (email: string, options: { name: string }) => {
      settings();
      const token = await refusalsAsExit(() => createToken(email, options.name));
      await audit("token.created", email.trim().toLowerCase(), { name: options.name }, CLI);
      // The token alone on stdout, so `$(toolroom tokens create …)` captures it; the advice on stderr.
      out(`${token}\n`);
      process.stderr.write("toolroom: this is the only time the token is shown; store it now.\n");
    });
  tokens
    .command("list [email]")
    .description("tokens (names and dates, never the tokens)")
    .action(async (email: string | undefined) => {
      settings();
      const rows = await refusalsAsExit(() => listTokens(email));
      if (rows.length === 0) return void out("No tokens.\n");
      for (const t of rows) out(`${t.email.padEnd(32)} ${t.name.padEnd(20)} made ${day(t.createdAt)}  last used ${day(t.lastUsedAt)}\n`);
    });
  tokens
    .command("revoke <email> <name>")
    .description("revoke a token: the next request carrying it is refused")
    .action(async (email: string, name: string) => {
      settings();
      await refusalsAsExit(() => revokeToken(email, name));
      await audit("token.revoked", email.trim().toLowerCase(), { name }, CLI);
      out(`Revoked ${email.trim()}'s token "${name}".\n`);
    });
}
