-- AlterTable
ALTER TABLE "Chat" ADD COLUMN     "runningOn" TEXT;

-- CreateTable
CREATE TABLE "Instance" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "host" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "heartbeatAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Instance_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Instance_heartbeatAt_idx" ON "Instance"("heartbeatAt");
