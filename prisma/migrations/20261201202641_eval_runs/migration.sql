-- CreateTable
CREATE TABLE "EvalRun" (
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
    "error" TEXT
);

-- CreateTable
CREATE TABLE "EvalTrial" (
    "runId" TEXT NOT NULL,
    "cell" TEXT NOT NULL,
    "caseName" TEXT NOT NULL,
    "trial" INTEGER NOT NULL,
    "verdict" TEXT NOT NULL,
    "record" TEXT NOT NULL,

    PRIMARY KEY ("runId", "cell", "caseName", "trial"),
    CONSTRAINT "EvalTrial_runId_fkey" FOREIGN KEY ("runId") REFERENCES "EvalRun" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
