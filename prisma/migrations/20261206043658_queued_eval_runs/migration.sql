-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_EvalRun" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "suiteKey" TEXT NOT NULL,
    "suite" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "choice" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "startedAt" DATETIME NOT NULL,
    "finishedAt" DATETIME,
    "total" INTEGER NOT NULL,
    "runRel" TEXT,
    "partial" BOOLEAN NOT NULL DEFAULT false,
    "cells" TEXT,
    "error" TEXT,
    "runningOn" TEXT,
    "queued" BOOLEAN NOT NULL DEFAULT false,
    "suiteFile" TEXT,
    "suiteText" TEXT,
    "trusted" BOOLEAN NOT NULL DEFAULT false
);
INSERT INTO "new_EvalRun" ("cells", "choice", "error", "finishedAt", "id", "label", "partial", "runRel", "runningOn", "startedAt", "state", "suite", "suiteKey", "total") SELECT "cells", "choice", "error", "finishedAt", "id", "label", "partial", "runRel", "runningOn", "startedAt", "state", "suite", "suiteKey", "total" FROM "EvalRun";
DROP TABLE "EvalRun";
ALTER TABLE "new_EvalRun" RENAME TO "EvalRun";
CREATE TABLE "new_Instance" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "kind" TEXT NOT NULL,
    "host" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "slots" INTEGER NOT NULL DEFAULT 0,
    "startedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "heartbeatAt" DATETIME NOT NULL
);
INSERT INTO "new_Instance" ("heartbeatAt", "host", "id", "kind", "pid", "startedAt") SELECT "heartbeatAt", "host", "id", "kind", "pid", "startedAt" FROM "Instance";
DROP TABLE "Instance";
ALTER TABLE "new_Instance" RENAME TO "Instance";
CREATE INDEX "Instance_heartbeatAt_idx" ON "Instance"("heartbeatAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
