-- CreateTable
CREATE TABLE "Comparison" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "prompts" TEXT NOT NULL,
    "sourceChatId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "ComparisonColumn" (
    "chatId" TEXT NOT NULL PRIMARY KEY,
    "comparisonId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "label" TEXT NOT NULL,
    CONSTRAINT "ComparisonColumn_chatId_fkey" FOREIGN KEY ("chatId") REFERENCES "Chat" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ComparisonColumn_comparisonId_fkey" FOREIGN KEY ("comparisonId") REFERENCES "Comparison" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "ComparisonColumn_comparisonId_idx" ON "ComparisonColumn"("comparisonId");

-- CreateIndex
CREATE UNIQUE INDEX "ComparisonColumn_comparisonId_position_key" ON "ComparisonColumn"("comparisonId", "position");
