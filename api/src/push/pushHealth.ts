import type { Queryable } from '../db/pool.js';
import { pushHealthRecord, type PushHealthDelta } from '../db/queries/pushEndpoint.js';

/** How often at most an endpoint's health is written, from one instance. */
export const PUSH_HEALTH_WRITE_MS = 1_000;

/**
 * Each endpoint's last error, last success and consecutive failures, as this instance sees its
 * deliveries, written to queue_push by write() (the push worker calls it every PUSH_HEALTH_WRITE_MS):
 * one statement for every endpoint that had a delivery since, none when none had. Kept apart from
 * the ack and nack, which are group-committed for many queues at once and know nothing of push.
 */
export class PushHealth {
  private pending = new Map<string, PushHealthDelta>();
  /** One write at a time: a later one committing first would have an older one's failures added after its success. */
  private writing: Promise<void> | undefined;

  constructor(private readonly db: Queryable) {}

  succeeded(queue: string, at = new Date()): void {
    const delta = this.deltaOf(queue);
    delta.failures = 0;
    delta.lastSuccessAt = at;
  }

  failed(queue: string, error: string, at = new Date()): void {
    const delta = this.deltaOf(queue);
    delta.failures += 1;
    delta.lastError = error;
    delta.lastErrorAt = at;
  }

  /** Writes what was seen since the last write (after the one under way, if any); on failure it is merged back for the next one. */
  async write(): Promise<void> {
    while (this.writing) await this.writing.catch(() => undefined);
    if (this.pending.size === 0) return;
    const deltas = [...this.pending.values()];
    this.pending = new Map();
    this.writing = pushHealthRecord(this.db, deltas);
    try {
      await this.writing;
    } catch (error) {
      for (const older of deltas) this.mergeBack(older);
      throw error;
    } finally {
      this.writing = undefined;
    }
  }

  private deltaOf(queue: string): PushHealthDelta {
    let delta = this.pending.get(queue);
    if (!delta) {
      delta = { queue, failures: 0, lastSuccessAt: null, lastError: null, lastErrorAt: null };
      this.pending.set(queue, delta);
    }
    return delta;
  }

  /** An unwritten delta put before what was seen since: the newer one's success, if any, wins. */
  private mergeBack(older: PushHealthDelta): void {
    const newer = this.pending.get(older.queue);
    if (!newer) {
      this.pending.set(older.queue, older);
      return;
    }
    if (newer.lastSuccessAt === null) {
      newer.failures += older.failures;
      newer.lastSuccessAt = older.lastSuccessAt;
    }
    if (newer.lastErrorAt === null) {
      newer.lastError = older.lastError;
      newer.lastErrorAt = older.lastErrorAt;
    }
  }
}
