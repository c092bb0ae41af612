import { describe, expect, it } from "vitest";
import { chatRequestSchema, checkMessageSize } from "./chat-request";
import { HttpError } from "@/lib/server/http/http-error";

const user = (parts: unknown[]) => ({ id: "c1", message: { id: "m1", role: "user", parts } });
const answered = (approval: Record<string, unknown>, state = "approval-responded") => ({
  id: "c1",
  message: {
    id: "a1",
    role: "assistant",
    parts: [{ type: "tool-run_terminal_command", toolCallId: "call-1", state, input: {}, approval: { id: "ap-1", ...approval } }],
  },
});
const firstIssue = (value: unknown) => {
  const parsed = chatRequestSchema.safeParse(value);
  return parsed.success ? null : `${parsed.error.issues[0]?.path.join(".")}: ${parsed.error.issues[0]?.message}`;
};

describe("chat request schema", () => {
  it("accepts approval responses whose approved is a boolean, with a bounded reason", () => {
    expect(firstIssue(answered({ approved: true }))).toBeNull();
    expect(firstIssue(answered({ approved: false, reason: "r".repeat(2000) }))).toBeNull();
    expect(firstIssue(answered({}, "approval-requested"))).toBeNull();
  });

  it("refuses approved that is not a boolean, a missing decision on a response, and over-long reasons", () => {
    for (const approved of ["false", "yes", "true", 1, 0, null, {}])
      expect(firstIssue(answered({ approved })), JSON.stringify(approved)).toMatch(/^message\.parts\.0\.approval\.approved: /);
    expect(firstIssue(answered({}))).toBe("message.parts.0.approval.approved: an approval response needs approved: true or false");
    expect(firstIssue(answered({ approved: false, reason: "r".repeat(2001) }))).toBe("message.parts.0.approval.reason: a reason is at most 2000 characters");
    expect(firstIssue(answered({ approved: false, reason: 7 }))).toMatch(/^message\.parts\.0\.approval\.reason: /);
  });

  it("refuses a text part whose text is not a string, and lets other part types through", () => {
    expect(firstIssue(user([{ type: "text", text: 42 }]))).toMatch(/^message\.parts\.0\.text: /);
    expect(firstIssue(user([{ type: "text" }]))).toMatch(/^message\.parts\.0\.text: /);
    expect(firstIssue(user([{ type: "step-start" }, { type: "text", text: "hi" }, { type: "file", mediaType: "text/plain", url: "data:," }]))).toBeNull();
  });

  it("refuses an attached file without a media type or with a URL the server would fetch", () => {
    expect(
      firstIssue(
        user([
          { type: "text", text: "hi" },
          { type: "file", url: "data:," },
        ]),
      ),
    ).toMatch(/^message\.parts\.1\.mediaType: /);
    expect(
      firstIssue(
        user([
          { type: "text", text: "hi" },
          { type: "file", mediaType: "image/png", url: "file:///etc/passwd" },
        ]),
      ),
    ).toBe("message.parts.1.url: an attached file must be a data: URL");
  });

  it("refuses chat ids that are not 1-64 letters, digits, _ and -", () => {
    for (const id of ["%ff", "a".repeat(65), "", "a/b", "ä"]) expect(firstIssue({ ...user([{ type: "text", text: "x" }]), id }), id).toMatch(/^id: /);
  });
});

describe("checkMessageSize", () => {
  const request = (text: string) => chatRequestSchema.parse(user([{ type: "text", text }]));

  it("counts an attached file's bytes with the text", () => {
    const withFile = chatRequestSchema.parse(
      user([
        { type: "text", text: "hi" },
        { type: "file", mediaType: "text/plain", url: `data:,${"x".repeat(200)}` },
      ]),
    );
    expect(() => checkMessageSize(withFile, 100)).toThrow(/bytes of text and attachments/);
  });

  it("admits text up to the limit and answers 413 above it, counting bytes", () => {
    expect(() => checkMessageSize(request("é".repeat(50)), 100)).not.toThrow();
    let error: unknown;
    try {
      checkMessageSize(request("é".repeat(51)), 100);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({
      status: 413,
      code: "message_too_large",
      message: "The message is 102 bytes of text and attachments, above the 100-byte limit (settings chat.maxMessageBytes).",
    });
  });
});
