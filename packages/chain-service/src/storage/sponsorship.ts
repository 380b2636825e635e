import type { Queryable } from "@slotgate/storage";

/** A sponsorship budget: the most wei of gas the paymaster pays for one scope in one UTC day. */
export interface SponsorshipBudget {
  /** `user:<uuid>`, `cuid:<cuid>`. */
  scope: string;
  limitWei: bigint;
}

/** When the UTC day of `now` ends (a budget's reset). */
export function dayEnd(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

const dayOf = (now: Date) => now.toISOString().slice(0, 10);

/**
 * Reserves `wei` (the most an operation can cost) against each budget, inside the transaction that
 * records the operation. Answers the first budget that would be exceeded (and reserves nothing), or null.
 */
export async function reserveSponsorship(tx: Queryable, budgets: readonly SponsorshipBudget[], wei: bigint, now: Date): Promise<SponsorshipBudget | null> {
  const day = dayOf(now);
  for (const budget of budgets) {
    await tx.query("INSERT INTO cs_sponsorship_usage (scope, day) VALUES ($1, $2) ON CONFLICT DO NOTHING", [budget.scope, day]);
    const rows = await tx.query<{ wei: string }>("SELECT wei FROM cs_sponsorship_usage WHERE scope = $1 AND day = $2 FOR UPDATE", [budget.scope, day]);
    if (BigInt(rows[0]?.wei ?? "0") + wei > budget.limitWei) return budget;
  }
  for (const budget of budgets) {
    await tx.query("UPDATE cs_sponsorship_usage SET wei = wei + $3, operations = operations + 1 WHERE scope = $1 AND day = $2", [
      budget.scope,
      day,
      wei.toString(),
    ]);
  }
  return null;
}

/** Replaces an operation's reservation with what it actually cost, on the day it was reserved. */
export async function settleSponsorship(db: Queryable, scopes: readonly string[], reservedWei: bigint, actualWei: bigint, reservedAt: Date): Promise<void> {
  const day = dayOf(reservedAt);
  for (const scope of scopes) {
    await db.query("UPDATE cs_sponsorship_usage SET wei = GREATEST(0, wei - $3 + $4) WHERE scope = $1 AND day = $2", [
      scope,
      day,
      reservedWei.toString(),
      actualWei.toString(),
    ]);
  }
}

/** A scope's usage today (tests, metrics). */
export async function sponsorshipUsage(db: Queryable, scope: string, now: Date): Promise<{ wei: bigint; operations: number }> {
  const rows = await db.query<{ wei: string; operations: number }>("SELECT wei, operations FROM cs_sponsorship_usage WHERE scope = $1 AND day = $2", [
    scope,
    dayOf(now),
  ]);
  return { wei: BigInt(rows[0]?.wei ?? "0"), operations: Number(rows[0]?.operations ?? 0) };
}
