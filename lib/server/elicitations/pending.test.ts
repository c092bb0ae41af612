import { describe, expect, it } from "vitest";
import type { ElicitSchema } from "@/lib/tools/types";
import { answerElicitation, askPerson, pendingIn, recordsIn } from "./pending";

const SCHEMA: ElicitSchema = { type: "object", properties: { size: { type: "string", enum: ["s", "l"] }, note: { type: "string" } }, required: ["size"] };

describe("pending elicitations", () => {
  it("waits for the person's answer in its scope, once, and records it", async () => {
    const answer = askPerson("chat-1", "pizza", "Which size?", SCHEMA, { timeoutSeconds: 60, ownerId: null });
    const [pending] = pendingIn("chat-1");
    expect(pending).toMatchObject({ toolName: "pizza", message: "Which size?", schema: SCHEMA });
    expect(pendingIn("chat-2")).toEqual([]);
    // Another chat cannot answer it; content that does not fit decides nothing.
    expect(await answerElicitation(pending!.id, "chat-2", { action: "accept", content: { size: "s" } })).toMatchObject({ ok: false, status: 404 });
    expect(await answerElicitation(pending!.id, "chat-1", { action: "accept", content: { size: "xl" } })).toMatchObject({
      ok: false,
      status: 422,
      errors: { size: "must be one of the options" },
    });
    expect(await answerElicitation(pending!.id, "chat-1", { action: "maybe" })).toMatchObject({ ok: false, status: 400 });
    expect(await answerElicitation(pending!.id, "chat-1", { action: "accept", content: { size: "l", note: "" } })).toEqual({ ok: true });
    expect(await answer).toEqual({ action: "accept", content: { size: "l" } });
    expect(await answerElicitation(pending!.id, "chat-1", { action: "decline" })).toMatchObject({ ok: false, status: 404 });
    expect(recordsIn("chat-1")).toEqual([expect.objectContaining({ id: pending!.id, action: "accept", decidedBy: "user", content: { size: "l" } })]);
  });

  it("cancels when the call is cancelled or nobody answers in time", async () => {
    const controller = new AbortController();
    const aborted = askPerson("chat-3", "pizza", "q", SCHEMA, { timeoutSeconds: 60, ownerId: null, signal: controller.signal });
    controller.abort();
    expect(await aborted).toEqual({ action: "cancel" });
    expect(await askPerson("chat-3", "pizza", "q", SCHEMA, { timeoutSeconds: 0.01, ownerId: null })).toEqual({ action: "cancel" });
    expect(recordsIn("chat-3").map((r) => r.decidedBy)).toEqual(["aborted", "timeout"]);
    expect(pendingIn("chat-3")).toEqual([]);
  });
});
