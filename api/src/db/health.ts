import type pg from 'pg';
import { boundCommits } from './commitBound.js';
import { CommitOutcomeUnknownError, isConnectionRefusedForNow } from './errors.js';
import { commitTimeoutOf } from './pool.js';
import { commitProbe } from './queries/commitProbe.js';
import { newClient } from './targetedClient.js';

/** Connecting for a check that takes longer than this says the database is down. */
export const CONNECT_TIMEOUT_MS = 2_000;
/** Probes arriving within this long of a finished check get its answer. */
export const REUSE_MS = 1_000;

/**
 * What the database is to this instance: `up`, `unreachable` (no connection, or it failed), or
 * `not-committing`: it answers, but does not confirm a commit within the commit timeout (a
 * synchronous standby that is gone, say), so no write of this instance can succeed.
 */
export type DatabaseState = 'up' | 'unreachable' | 'not-committing';

/**
 * Whether the database takes this instance's writes, for /actuator/health and the
 * miniqueue_database_up gauge: each check commits a tiny write (queries/commitProbe.ts), bounded
 * by the commit timeout, since a `SELECT 1` commits nothing and says UP while every write hangs.
 *
 * It does not queue in the request pool: when every pooled connection is busy the database is
 * still up, and a probe that waited in the pool's queue would say otherwise (and take a connection
 * from a request). Each check opens one short connection of its own. A server that refuses it for
 * being full (max_connections) or starting up has answered: it is reachable, and this instance
 * serves with the connections its pool holds, so the probe runs on one of those if one is idle, and
 * otherwise the answer is `up`. Concurrent probes share one check, and a check's answer is reused
 * for a second, so probes cost at most one connection at a time and about one a second.
 */
export class DatabaseHealth {
  private running?: Promise<DatabaseState>;
  private last?: { at: number; state: DatabaseState };

  constructor(private readonly pool: pg.Pool) {}

  async isUp(): Promise<boolean> {
    return (await this.state()) === 'up';
  }

  /**
   * For a scrape, which must not wait out a stalled commit (up to the commit timeout, about
   * Prometheus' own scrape timeout): no answer within `ms` counts as not up; the check goes on,
   * and its answer serves the next asker.
   */
  isUpWithin(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    });
    return Promise.race([this.isUp(), late]).finally(() => clearTimeout(timer));
  }

  state(): Promise<DatabaseState> {
    if (this.last && Date.now() - this.last.at < REUSE_MS) return Promise.resolve(this.last.state);
    this.running ??= this.check()
      .then((state) => {
        this.last = { at: Date.now(), state };
        return state;
      })
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  /** How long a commit may take before the database counts as not committing (ms). */
  get commitTimeoutMs(): number {
    return commitTimeoutOf(this.pool);
  }

  private async check(): Promise<DatabaseState> {
    // With a multi-host URL this connects only to a writable server: none reachable is DOWN.
    const client = newClient({
      ...this.pool.options,
      application_name: 'miniqueue-health',
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      // A server that answers nothing at all; a commit that waits is ended sooner, by the bound.
      query_timeout: CONNECT_TIMEOUT_MS + this.commitTimeoutMs,
    });
    // A connection dying during the check fails the check; it must not raise an unhandled 'error'.
    client.on('error', () => undefined);
    boundCommits(client, this.commitTimeoutMs);
    try {
      await client.connect();
    } catch (error) {
      return isConnectionRefusedForNow(error) ? this.probeIdlePooled() : 'unreachable';
    }
    try {
      return await probe(client);
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  /** On a pooled connection only if one is idle: never one a request waits for. */
  private async probeIdlePooled(): Promise<DatabaseState> {
    const client = this.pool.idleCount > 0 ? await this.pool.connect().catch(() => undefined) : undefined;
    if (!client) return 'up';
    try {
      return await probe(client);
    } finally {
      client.release();
    }
  }
}

async function probe(db: pg.ClientBase): Promise<DatabaseState> {
  try {
    await commitProbe(db);
    return 'up';
  } catch (error) {
    return error instanceof CommitOutcomeUnknownError ? 'not-committing' : 'unreachable';
  }
}
