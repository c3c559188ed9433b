/** Counts of one bench run, written by the workers and read by the progress line and the report. */
export class BenchStats {
  /** Messages published (a message to a topic with N queues counts once). */
  published = 0;
  /** Copies stored: published × queues bound, as the broker answered. */
  stored = 0;
  acked = 0;
  readonly latenciesMs: number[] = [];
  readonly errors = new Map<string, number>();

  error(error: unknown): void {
    const status = (error as { status?: number }).status;
    const key = status === undefined ? (error as Error).name || 'error' : status === 0 ? 'no answer' : `HTTP ${status}`;
    this.errors.set(key, (this.errors.get(key) ?? 0) + 1);
  }

  get errorCount(): number {
    let total = 0;
    for (const count of this.errors.values()) total += count;
    return total;
  }

  /** Copies stored and not yet acked. */
  get backlog(): number {
    return this.stored - this.acked;
  }
}

/** The counts when the clock stopped, which the rates are computed from. */
export interface Snapshot {
  seconds: number;
  published: number;
  acked: number;
}

/** The p-th percentile (0..100) by nearest rank, or null with no samples. `sorted` must be ascending. */
export function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}
