-- AlterTable: a plain ADD COLUMN (SQLite allows it for NOT NULL with a default), so the columns
-- other migrations added to Chat are kept; Prisma's generated table rebuild would have dropped them.
ALTER TABLE "Chat" ADD COLUMN "origin" TEXT NOT NULL DEFAULT 'chat';
