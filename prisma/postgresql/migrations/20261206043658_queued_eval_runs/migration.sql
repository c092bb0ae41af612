-- AlterTable
ALTER TABLE "EvalRun" ADD COLUMN     "queued" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "suiteFile" TEXT,
ADD COLUMN     "suiteText" TEXT,
ADD COLUMN     "trusted" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "Instance" ADD COLUMN     "slots" INTEGER NOT NULL DEFAULT 0;
