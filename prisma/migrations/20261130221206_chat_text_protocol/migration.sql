-- AlterTable
ALTER TABLE "Chat" ADD COLUMN "textProtocol" TEXT;
