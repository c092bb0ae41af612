-- How each trace step ended: finished, stopped, disconnected, timed-out, provider-error, refused, interrupted.
-- NULL only while the step runs (a step saved with the answer's periodic saves); the next start closes
-- what a dead process left NULL as "interrupted". Steps stored before this column said only their finish reason.
ALTER TABLE "TraceStep" ADD COLUMN "outcome" TEXT;
UPDATE "TraceStep" SET "outcome" = CASE WHEN "error" IS NOT NULL THEN 'provider-error' WHEN "finishReason" = 'content-filter' THEN 'refused' WHEN "finishReason" IS NOT NULL THEN 'finished' ELSE 'unknown' END;
