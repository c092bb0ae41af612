-- AlterTable
ALTER TABLE "EvalRun" ADD COLUMN     "runningOn" TEXT;
