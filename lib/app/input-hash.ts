import crypto from "node:crypto";
import { stableJson } from "@/lib/chat/history";

/** The exact arguments of a call, as the server will later compare them. */
export function inputHash(input: unknown): string {
  return crypto.createHash("sha256").update(stableJson(input)).digest("hex");
}
