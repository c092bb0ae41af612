import { beforeAll, describe, expect, it } from "vitest";
import { post, startServer, useTempDatabase } from "@/lib/testing/approvals-harness";
import { HttpError } from "@/lib/server/http/http-error";
import { compareRequestSchema } from "./compare-request";

useTempDatabase("toolroom-compare-");

let service: typeof import("./compare-service");

beforeAll(async () => {
  await startServer({ TOOLROOM_CHAT__TEXTPROTOCOL: "action" });
  service = await import("./compare-service");
});

const userMessage = (id: string, text: string) => ({ id, role: "user", parts: [{ type: "text", text }] });

async function refusal(promise: Promise<unknown>): Promise<HttpError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HttpError);
  return error as HttpError;
}

describe("compare request", () => {
  const columns = [{ modelRef: "offline", toolMode: "native" }];
  it("takes 2-4 columns and either prompts or a replay", () => {
    expect(compareRequestSchema.safeParse({ prompts: ["x"], columns }).success).toBe(false);
    expect(compareRequestSchema.safeParse({ prompts: ["x"], columns: Array(5).fill(columns[0]) }).success).toBe(false);
    expect(compareRequestSchema.safeParse({ columns: [...columns, ...columns] }).success).toBe(false);
    expect(compareRequestSchema.safeParse({ prompts: ["x"], replay: { chatId: "c1" }, columns: [...columns, ...columns] }).success).toBe(false);
    expect(compareRequestSchema.safeParse({ prompts: ["x"], columns: [...columns, ...columns] }).success).toBe(true);
  });
});

describe("startComparison", () => {
  it("stores one chat per column, labelled, with its model, mode and protocol, and lists it", async () => {
    const started = await service.startComparison(
      compareRequestSchema.parse({
        prompts: ["list files in lib"],
        columns: [
          { modelRef: "offline", toolMode: "native" },
          { modelRef: "offline", toolMode: "text" },
          { modelRef: "offline", toolMode: "text", textProtocol: "json" },
        ],
      }),
    );
    expect(started.columns.map((c) => c.label)).toEqual(["offline · native", "offline · text/action", "offline · text/json"]);
    const detail = await service.comparisonDetail(started.id);
    expect(detail?.prompts).toEqual(["list files in lib"]);
    expect(detail?.columns.map((c) => [c.config.toolMode, c.config.textProtocol])).toEqual([
      ["native", "action"],
      ["text", "action"],
      ["text", "json"],
    ]);
    expect(detail?.columns[2]?.chat.textProtocol).toBe("json");
    expect((await service.comparisonList()).map((c) => c.id)).toContain(started.id);

    // A column is an ordinary chat: the chat route answers in it and the comparison shows the answer.
    const column = detail!.columns[1]!;
    const response = await post({ id: column.chatId, message: userMessage("u-col", "list files in lib"), model: "offline", toolMode: "text" });
    expect(response.status).toBe(200);
    const after = await service.comparisonDetail(started.id);
    expect(after?.columns[1]?.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(JSON.stringify(after?.columns[1]?.messages[1]?.parts)).toContain("tool-list_files");
  });

  it("refuses an unknown model and stores nothing", async () => {
    const before = (await service.comparisonList()).length;
    const error = await refusal(
      service.startComparison(
        compareRequestSchema.parse({
          prompts: ["x"],
          columns: [
            { modelRef: "offline", toolMode: "native" },
            { modelRef: "nope", toolMode: "native" },
          ],
        }),
      ),
    );
    expect([error.status, error.code]).toEqual([400, "unknown_model"]);
    expect((await service.comparisonList()).length).toBe(before);
  });

  it("replays a stored chat's first user message, or all of them in order", async () => {
    await (await post({ id: "replay-src", message: userMessage("r1", "list files in lib") })).text();
    await (await post({ id: "replay-src", message: userMessage("r2", "read README.md") })).text();
    const columns = [
      { modelRef: "offline", toolMode: "native" },
      { modelRef: "offline", toolMode: "text" },
    ];
    const first = await service.startComparison(compareRequestSchema.parse({ replay: { chatId: "replay-src" }, columns }));
    expect(first.prompts).toEqual(["list files in lib"]);
    expect(first.sourceChatId).toBe("replay-src");
    const all = await service.startComparison(compareRequestSchema.parse({ replay: { chatId: "replay-src", messages: "all" }, columns }));
    expect(all.prompts).toEqual(["list files in lib", "read README.md"]);
    const missing = await refusal(service.startComparison(compareRequestSchema.parse({ replay: { chatId: "no-such-chat" }, columns })));
    expect([missing.status, missing.code]).toEqual([404, "unknown_chat"]);
  });

  it("reads an unknown comparison as null", async () => {
    expect(await service.comparisonDetail("no-such-comparison")).toBeNull();
  });
});
