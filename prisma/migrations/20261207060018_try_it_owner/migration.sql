-- AlterTable
ALTER TABLE "TryItApproval" ADD COLUMN "ownerId" TEXT;
