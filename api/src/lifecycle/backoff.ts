export interface Backoff {
  /** The ceiling of the first wait. */
  firstMs: number;
  /** The ceiling never grows past this. */
  maxMs: number;
}

/**
 * How long to wait before attempt `attempt` (0 for the first retry): the ceiling doubles from
 * `firstMs` up to `maxMs`, and the wait is drawn from the upper half of it, so that instances
 * which failed together (the database went away under all of them) do not retry in lockstep, and
 * none retries sooner than half the ceiling.
 */
export function backoffDelayMs(attempt: number, backoff: Backoff, random: () => number = Math.random): number {
  const ceiling = Math.min(backoff.firstMs * 2 ** attempt, backoff.maxMs);
  return ceiling / 2 + (random() * ceiling) / 2;
}

/** Reconnecting to PostgreSQL: a database that is back is in use again within 800 ms. */
export const RECONNECT_BACKOFF: Backoff = { firstMs: 100, maxMs: 800 };
