import "server-only";
import { db } from "@/lib/db/client";
import { SIGN_IN_ATTEMPTS } from "./server";

// Wrong passwords for one account, counted in better-auth's rateLimit table beside its per-address
// counts, so guessing one person's password from many addresses is slowed down too, on every instance.

const keyOf = (email: string) => `account:${email.trim().toLowerCase()}`;

/** Seconds until `email` may try again, or 0. */
export async function accountLockedFor(email: string, now = Date.now()): Promise<number> {
  const row = await db().rateLimit.findUnique({ where: { key: keyOf(email) } });
  if (!row || row.count < SIGN_IN_ATTEMPTS.max) return 0;
  const until = Number(row.lastRequest) + SIGN_IN_ATTEMPTS.window * 1000;
  return until > now ? Math.ceil((until - now) / 1000) : 0;
}

/** One more wrong password for `email`; a window that has passed starts again at one. */
export async function recordFailure(email: string, now = Date.now()): Promise<void> {
  const key = keyOf(email);
  const since = BigInt(now - SIGN_IN_ATTEMPTS.window * 1000);
  // Within the window: one atomic increment (two instances cannot lose a count); else a fresh window.
  const { count } = await db().rateLimit.updateMany({
    where: { key, lastRequest: { gte: since } },
    data: { count: { increment: 1 }, lastRequest: BigInt(now) },
  });
  if (count > 0) return;
  await db().rateLimit.upsert({ where: { key }, create: { id: key, key, count: 1, lastRequest: BigInt(now) }, update: { count: 1, lastRequest: BigInt(now) } });
}

export async function clearFailures(email: string): Promise<void> {
  await db().rateLimit.deleteMany({ where: { key: keyOf(email) } });
}
