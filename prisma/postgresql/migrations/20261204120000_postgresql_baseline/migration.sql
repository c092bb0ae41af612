-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "Chat" (
    "id" TEXT NOT NULL,
    "title" TEXT NOT NULL DEFAULT 'New chat',
    "modelRef" TEXT NOT NULL DEFAULT 'offline',
    "toolMode" TEXT NOT NULL DEFAULT 'native',
    "textProtocol" TEXT,
    "supervised" BOOLEAN NOT NULL DEFAULT true,
    "origin" TEXT NOT NULL DEFAULT 'chat',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Chat_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Message" (
    "id" TEXT NOT NULL,
    "chatId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "role" TEXT NOT NULL,
    "parts" TEXT NOT NULL,
    "metadata" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Message_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ToolCall" (
    "id" TEXT NOT NULL,
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
    "ruleKey" TEXT,
    "originalInput" TEXT,
    "decision" TEXT,
    "decisionReason" TEXT,
    "issuedAt" TIMESTAMP(3),
    "expiresAt" TIMESTAMP(3),
    "decidedAt" TIMESTAMP(3),
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),
    "durationMs" INTEGER,
    "madeChanges" BOOLEAN NOT NULL DEFAULT false,
    "model" TEXT,
    "elicitations" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ToolCall_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ToolGrant" (
    "id" TEXT NOT NULL,
    "chatId" TEXT NOT NULL,
    "toolName" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ToolGrant_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TryItApproval" (
    "id" TEXT NOT NULL,
    "toolName" TEXT NOT NULL,
    "inputHash" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TryItApproval_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Comparison" (
    "id" TEXT NOT NULL,
    "prompts" TEXT NOT NULL,
    "sourceChatId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Comparison_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ComparisonColumn" (
    "chatId" TEXT NOT NULL,
    "comparisonId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "label" TEXT NOT NULL,

    CONSTRAINT "ComparisonColumn_pkey" PRIMARY KEY ("chatId")
);

-- CreateTable
CREATE TABLE "TraceStep" (
    "id" TEXT NOT NULL,
    "chatId" TEXT NOT NULL,
    "turnId" TEXT NOT NULL,
    "messageId" TEXT NOT NULL,
    "stepNumber" INTEGER NOT NULL,
    "model" TEXT NOT NULL,
    "answeredBy" TEXT,
    "toolMode" TEXT NOT NULL,
    "protocol" TEXT,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "ttftMs" INTEGER,
    "modelMs" INTEGER,
    "durationMs" INTEGER,
    "finishReason" TEXT,
    "inputTokens" INTEGER,
    "outputTokens" INTEGER,
    "cachedTokens" INTEGER,
    "retries" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "outcome" TEXT,
    "toolCalls" TEXT NOT NULL,
    "raw" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TraceStep_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApprovalRule" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "decision" TEXT NOT NULL,
    "reason" TEXT,
    "tool" TEXT,
    "source" TEXT,
    "readonly" BOOLEAN,
    "args" TEXT,
    "chatId" TEXT,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ApprovalRule_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApprovalRuleHit" (
    "key" TEXT NOT NULL,
    "matchCount" INTEGER NOT NULL DEFAULT 0,
    "lastMatchedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ApprovalRuleHit_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "EvalRun" (
    "id" TEXT NOT NULL,
    "suiteKey" TEXT NOT NULL,
    "suite" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "choice" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "finishedAt" TIMESTAMP(3),
    "total" INTEGER NOT NULL,
    "runRel" TEXT,
    "partial" BOOLEAN NOT NULL DEFAULT false,
    "cells" TEXT,
    "error" TEXT,

    CONSTRAINT "EvalRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "EvalTrial" (
    "runId" TEXT NOT NULL,
    "cell" TEXT NOT NULL,
    "caseName" TEXT NOT NULL,
    "trial" INTEGER NOT NULL,
    "verdict" TEXT NOT NULL,
    "record" TEXT NOT NULL,

    CONSTRAINT "EvalTrial_pkey" PRIMARY KEY ("runId","cell","caseName","trial")
);

-- CreateTable
CREATE TABLE "McpOAuth" (
    "server" TEXT NOT NULL,
    "serverUrl" TEXT NOT NULL,
    "clientInfo" TEXT,
    "tokens" TEXT,
    "codeVerifier" TEXT,
    "discovery" TEXT,
    "flowLog" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "McpOAuth_pkey" PRIMARY KEY ("server")
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

-- CreateIndex
CREATE INDEX "TryItApproval_expiresAt_idx" ON "TryItApproval"("expiresAt");

-- CreateIndex
CREATE INDEX "ComparisonColumn_comparisonId_idx" ON "ComparisonColumn"("comparisonId");

-- CreateIndex
CREATE UNIQUE INDEX "ComparisonColumn_comparisonId_position_key" ON "ComparisonColumn"("comparisonId", "position");

-- CreateIndex
CREATE INDEX "TraceStep_chatId_idx" ON "TraceStep"("chatId");

-- CreateIndex
CREATE INDEX "ApprovalRule_chatId_idx" ON "ApprovalRule"("chatId");

-- AddForeignKey
ALTER TABLE "Message" ADD CONSTRAINT "Message_chatId_fkey" FOREIGN KEY ("chatId") REFERENCES "Chat"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ToolCall" ADD CONSTRAINT "ToolCall_chatId_fkey" FOREIGN KEY ("chatId") REFERENCES "Chat"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ToolGrant" ADD CONSTRAINT "ToolGrant_chatId_fkey" FOREIGN KEY ("chatId") REFERENCES "Chat"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ComparisonColumn" ADD CONSTRAINT "ComparisonColumn_chatId_fkey" FOREIGN KEY ("chatId") REFERENCES "Chat"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ComparisonColumn" ADD CONSTRAINT "ComparisonColumn_comparisonId_fkey" FOREIGN KEY ("comparisonId") REFERENCES "Comparison"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TraceStep" ADD CONSTRAINT "TraceStep_chatId_fkey" FOREIGN KEY ("chatId") REFERENCES "Chat"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EvalTrial" ADD CONSTRAINT "EvalTrial_runId_fkey" FOREIGN KEY ("runId") REFERENCES "EvalRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;
