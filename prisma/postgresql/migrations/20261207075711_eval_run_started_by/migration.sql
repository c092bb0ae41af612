-- AlterTable
ALTER TABLE "EvalRun" ADD COLUMN     "startedBy" TEXT;
