import { sweepExpiredApprovals } from "./approvals";

const SWEEP_INTERVAL_MS = 5_000;

/** Approval timeouts hold even when no browser is open: the server times them out on its own. */
export function startApprovalSweeper(): void {
  const timer = setInterval(() => {
    sweepExpiredApprovals().catch((error: unknown) => console.error(`toolroom: approval sweep failed: ${(error as Error).message}`));
  }, SWEEP_INTERVAL_MS);
  timer.unref();
}
