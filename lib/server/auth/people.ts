import "server-only";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { hashPassword } from "better-auth/crypto";
import { db } from "@/lib/db/client";
import { HttpError } from "@/lib/server/http/http-error";
import type { Person } from "./person";
import { isRole, ROLES, type Role } from "./roles";

// Users and API tokens, as `toolroom users` / `toolroom tokens` and the first-visit page make
// them. Passwords are hashed by better-auth (scrypt) into its credential account, exactly as its
// own sign-up does, so its sign-in verifies them; tokens are random and only their SHA-256 is kept.

/** Password rules better-auth's sign-in also holds (its defaults: 8 to 128 characters). */
const MIN_PASSWORD = 8;
const MAX_PASSWORD = 128;
/** A token names itself, so a leaked one in a log is recognisable (and scanners can find it). */
const TOKEN_PREFIX = "tr_";

const EMAIL = /^[^\s@]+@[^\s@]+$/;

export function normalEmail(email: string): string {
  const trimmed = email.trim().toLowerCase();
  if (!EMAIL.test(trimmed)) throw new HttpError(400, `"${email}" is not an email address.`, "invalid_email");
  return trimmed;
}

function checkRole(role: string): Role {
  if (!isRole(role)) throw new HttpError(400, `Unknown role "${role}": one of ${ROLES.join(", ")}.`, "invalid_role");
  return role;
}

function checkPassword(password: string): void {
  if (password.length < MIN_PASSWORD || password.length > MAX_PASSWORD)
    throw new HttpError(400, `A password has ${MIN_PASSWORD} to ${MAX_PASSWORD} characters (this one has ${password.length}).`, "invalid_password");
}

export async function addUser(input: { email: string; role: string; password: string }): Promise<Person> {
  const email = normalEmail(input.email);
  const role = checkRole(input.role);
  checkPassword(input.password);
  const password = await hashPassword(input.password);
  const id = randomUUID();
  try {
    await db().user.create({
      data: {
        id,
        email,
        name: email.split("@")[0] ?? email,
        role,
        accounts: { create: { id: randomUUID(), accountId: id, providerId: "credential", password } },
      },
    });
  } catch (error) {
    if ((error as { code?: string }).code === "P2002") throw new HttpError(409, `${email} already has an account.`, "user_exists");
    throw error;
  }
  return { id, email, role };
}

/** The first admin, made from the sign-in page: only while no user exists (one transaction, so two visitors cannot both). */
export async function addFirstAdmin(input: { email: string; password: string }): Promise<Person> {
  const email = normalEmail(input.email);
  checkPassword(input.password);
  const password = await hashPassword(input.password);
  const id = randomUUID();
  return db().$transaction(async (tx) => {
    if ((await tx.user.count()) > 0) throw new HttpError(409, "An admin already exists: sign in, or ask them for an account.", "users_exist");
    await tx.user.create({
      data: {
        id,
        email,
        name: email.split("@")[0] ?? email,
        role: "admin",
        accounts: { create: { id: randomUUID(), accountId: id, providerId: "credential", password } },
      },
    });
    return { id, email, role: "admin" as const };
  });
}

/** A user's email (who shared a chat, say); null once the user is removed. */
export async function emailOfUser(id: string): Promise<string | null> {
  return (await db().user.findUnique({ where: { id }, select: { email: true } }))?.email ?? null;
}

export async function hasUsers(): Promise<boolean> {
  return (await db().user.count()) > 0;
}

export async function listUsers(): Promise<{ email: string; role: string; createdAt: Date; tokens: number }[]> {
  const users = await db().user.findMany({ orderBy: { email: "asc" }, include: { _count: { select: { apiTokens: true } } } });
  return users.map((u) => ({ email: u.email, role: u.role, createdAt: u.createdAt, tokens: u._count.apiTokens }));
}

async function userOf(email: string) {
  const user = await db().user.findUnique({ where: { email: normalEmail(email) } });
  if (!user) throw new HttpError(404, `No user ${email.trim()}.`, "no_user");
  return user;
}

/** A changed role holds at the person's next request: roles are read per request, never kept in the session. */
export async function setRole(email: string, role: string): Promise<void> {
  const user = await userOf(email);
  await db().user.update({ where: { id: user.id }, data: { role: checkRole(role) } });
}

/** Removes the user with their sessions and tokens (cascade); their chats stay, unlisted to others. */
export async function removeUser(email: string): Promise<void> {
  const user = await userOf(email);
  await db().user.delete({ where: { id: user.id } });
}

function tokenHash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** A new token for `email`: returned once, stored as its hash. */
export async function createToken(email: string, name: string): Promise<string> {
  const user = await userOf(email);
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
  try {
    await db().apiToken.create({ data: { name, hash: tokenHash(token), userId: user.id } });
  } catch (error) {
    if ((error as { code?: string }).code === "P2002") throw new HttpError(409, `${user.email} already has a token named "${name}".`, "token_exists");
    throw error;
  }
  return token;
}

export async function listTokens(email?: string): Promise<{ email: string; name: string; createdAt: Date; lastUsedAt: Date | null }[]> {
  const where = email ? { userId: (await userOf(email)).id } : {};
  const tokens = await db().apiToken.findMany({ where, include: { user: true }, orderBy: [{ createdAt: "asc" }] });
  return tokens.map((t) => ({ email: t.user.email, name: t.name, createdAt: t.createdAt, lastUsedAt: t.lastUsedAt }));
}

export async function revokeToken(email: string, name: string): Promise<void> {
  const user = await userOf(email);
  const { count } = await db().apiToken.deleteMany({ where: { userId: user.id, name } });
  if (count === 0) throw new HttpError(404, `${user.email} has no token named "${name}".`, "no_token");
}

/** The person a bearer token belongs to, or null for any token this store did not issue. */
export async function personOfToken(token: string): Promise<Person | null> {
  if (!token.startsWith(TOKEN_PREFIX)) return null;
  const row = await db().apiToken.findUnique({ where: { hash: tokenHash(token) }, include: { user: true } });
  if (!row) return null;
  // At most one write a minute per token: "last used" is for `tokens list`, not an audit trail.
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > 60_000)
    void db()
      .apiToken.update({ where: { id: row.id }, data: { lastUsedAt: new Date() } })
      .catch(() => {});
  return { id: row.user.id, email: row.user.email, role: isRole(row.user.role) ? row.user.role : "viewer" };
}
