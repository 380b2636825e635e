/** The codes every chain write may answer besides its own: a reused Idempotency-Key, the sponsorship budget. */
export const WRITE_ERRORS = ["idempotency_key_reused", "sponsorship_budget_exceeded"] as const;
