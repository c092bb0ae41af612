import crypto from "node:crypto";
import { canonicalJson } from "@/lib/tools/canonical-json";

/** The exact arguments of a call, as the server will later compare them (chat and try-it alike). */
export function inputHash(input: unknown): string {
  return crypto.createHash("sha256").update(canonicalJson(input)).digest("hex");
}
