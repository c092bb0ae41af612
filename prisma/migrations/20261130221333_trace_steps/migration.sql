-- CreateTable
CREATE TABLE "TraceStep" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "chatId" TEXT NOT NULL,
    "turnId" TEXT NOT NULL,
    "messageId" TEXT NOT NULL,
    "stepNumber" INTEGER NOT NULL,
    "model" TEXT NOT NULL,
    "answeredBy" TEXT,
    "toolMode" TEXT NOT NULL,
    "protocol" TEXT,
    "startedAt" DATETIME NOT NULL,
    "ttftMs" INTEGER,
    "modelMs" INTEGER,
    "durationMs" INTEGER,
    "finishReason" TEXT,
    "inputTokens" INTEGER,
    "outputTokens" INTEGER,
    "cachedTokens" INTEGER,
    "retries" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "toolCalls" TEXT NOT NULL,
    "raw" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "TraceStep_chatId_fkey" FOREIGN KEY ("chatId") REFERENCES "Chat" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "TraceStep_chatId_idx" ON "TraceStep"("chatId");
