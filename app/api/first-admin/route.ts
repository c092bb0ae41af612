import { z } from "zod";
import { makeFirstAdmin } from "@/lib/server/auth/first-admin";
import { handle, readJson } from "@/lib/server/http/route";

const bodySchema = z.strictObject({ email: z.string().min(3).max(320), password: z.string().min(1).max(200) });

/** POST /api/first-admin — while no user exists, on loopback: the first admin, signed in. */
export const POST = handle("public", async (request: Request) => makeFirstAdmin(request, await readJson(request, bodySchema, { maxBytes: 4096 })));
