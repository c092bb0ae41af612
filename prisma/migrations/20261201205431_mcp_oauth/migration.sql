-- CreateTable
CREATE TABLE "McpOAuth" (
    "server" TEXT NOT NULL PRIMARY KEY,
    "serverUrl" TEXT NOT NULL,
    "clientInfo" TEXT,
    "tokens" TEXT,
    "codeVerifier" TEXT,
    "discovery" TEXT,
    "flowLog" TEXT,
    "updatedAt" DATETIME NOT NULL
);
