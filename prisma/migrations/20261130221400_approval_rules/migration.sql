-- AlterTable
ALTER TABLE "ToolCall" ADD COLUMN "originalInput" TEXT;
ALTER TABLE "ToolCall" ADD COLUMN "ruleKey" TEXT;

-- CreateTable
CREATE TABLE "ApprovalRule" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "decision" TEXT NOT NULL,
    "reason" TEXT,
    "tool" TEXT,
    "source" TEXT,
    "readonly" BOOLEAN,
    "args" TEXT,
    "chatId" TEXT,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "ApprovalRuleHit" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "matchCount" INTEGER NOT NULL DEFAULT 0,
    "lastMatchedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "ApprovalRule_chatId_idx" ON "ApprovalRule"("chatId");
