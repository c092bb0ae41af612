-- CreateTable
CREATE TABLE "Chat" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "title" TEXT NOT NULL DEFAULT 'New chat',
    "modelRef" TEXT NOT NULL DEFAULT 'offline',
    "toolMode" TEXT NOT NULL DEFAULT 'native',
    "supervised" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "Message" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "chatId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "role" TEXT NOT NULL,
    "parts" TEXT NOT NULL,
    "metadata" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Message_chatId_fkey" FOREIGN KEY ("chatId") REFERENCES "Chat" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ToolCall" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "chatId" TEXT NOT NULL,
    "toolName" TEXT NOT NULL,
    "sourcePackage" TEXT NOT NULL,
    "input" TEXT NOT NULL,
    "inputHash" TEXT NOT NULL,
    "output" TEXT,
    "state" TEXT NOT NULL,
    "isError" BOOLEAN NOT NULL DEFAULT false,
    "approvalId" TEXT,
    "approvalState" TEXT,
    "decidedBy" TEXT,
    "decision" TEXT,
    "decisionReason" TEXT,
    "issuedAt" DATETIME,
    "expiresAt" DATETIME,
    "decidedAt" DATETIME,
    "startedAt" DATETIME,
    "finishedAt" DATETIME,
    "durationMs" INTEGER,
    "madeChanges" BOOLEAN NOT NULL DEFAULT false,
    "model" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ToolCall_chatId_fkey" FOREIGN KEY ("chatId") REFERENCES "Chat" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ToolGrant" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "chatId" TEXT NOT NULL,
    "toolName" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ToolGrant_chatId_fkey" FOREIGN KEY ("chatId") REFERENCES "Chat" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "Message_chatId_idx" ON "Message"("chatId");

-- CreateIndex
CREATE UNIQUE INDEX "Message_chatId_position_key" ON "Message"("chatId", "position");

-- CreateIndex
CREATE UNIQUE INDEX "ToolCall_approvalId_key" ON "ToolCall"("approvalId");

-- CreateIndex
CREATE INDEX "ToolCall_chatId_idx" ON "ToolCall"("chatId");

-- CreateIndex
CREATE UNIQUE INDEX "ToolGrant_chatId_toolName_key" ON "ToolGrant"("chatId", "toolName");
