/** The longest pause between two attempts: a database that is back is in use again within this. */
export const MAX_RECONNECT_DELAY_MS = 800;

/**
 * How long to wait before reconnect attempt `attempt` (0 for the first): 100 ms, doubling, capped
 * at MAX_RECONNECT_DELAY_MS, each drawn from the upper half of its range so that instances which
 * lost the database together do not knock on it in lockstep.
 */
export function reconnectDelayMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(100 * 2 ** attempt, MAX_RECONNECT_DELAY_MS);
  return ceiling / 2 + (random() * ceiling) / 2;
}
