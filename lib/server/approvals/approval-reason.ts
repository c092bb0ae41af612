import { z } from "zod";

/** A deny reason is a sentence for the model, not a payload: bounded wherever a person decides. */
export const MAX_APPROVAL_REASON = 2000;

export const approvalReasonSchema = z.string().max(MAX_APPROVAL_REASON, `a reason is at most ${MAX_APPROVAL_REASON} characters`);
