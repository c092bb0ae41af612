-- CreateTable
CREATE TABLE "CollectionRun" (
    "id" TEXT NOT NULL,
    "collectionKey" TEXT NOT NULL,
    "collection" TEXT NOT NULL,
    "vars" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "finishedAt" TIMESTAMP(3),
    "total" INTEGER NOT NULL,
    "done" INTEGER NOT NULL DEFAULT 0,
    "passed" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "results" TEXT NOT NULL DEFAULT '[]',

    CONSTRAINT "CollectionRun_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "CollectionRun_collectionKey_startedAt_idx" ON "CollectionRun"("collectionKey", "startedAt");
