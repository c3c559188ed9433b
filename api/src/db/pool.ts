import pg from 'pg';
import { backoffDelayMs } from '../lifecycle/backoff.js';
import { boundCommits } from './commitBound.js';
import { ConnectionWaitExpiredError, NoSuitableServerError, isConnectionRefusedForNow } from './errors.js';
import type { Purpose } from './hostLocator.js';
import { TargetedClient, isTargeted } from './targetedClient.js';

export type Pool = pg.Pool;
/**
 * The hot statements (publish, claim, ack, nack, …) are sent as named prepared statements
 * (`{ name, text, values }`): each connection parses and plans them once. Planning the publish
 * statement costs about 2 ms of the database's CPU, twice what running it for one message does.
 */
export type Queryable = Pick<pg.Pool, 'query'> | pg.PoolClient;

// int8 (count(*), sequences) as JS numbers: our counts stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));

/** How long a request waits for a connection by default (see MINIQUEUE_DB_CONNECTION_WAIT_SECONDS). */
export const DEFAULT_CONNECTION_WAIT_MS = 5_000;

/**
 * How long a statement in a transaction waits for a lock by default (MINIQUEUE_DB_LOCK_TIMEOUT_SECONDS).
 * Far above any wait the broker means to make (a publish waiting for a concurrent one with the same
 * idempotency key, a queue deletion waiting for publishes in flight: a group commit lasts
 * milliseconds), and far below a request's patience: a transaction stuck behind a lock somebody
 * forgot (a session left open in psql) fails with 503 instead of holding its connection for good.
 */
export const DEFAULT_LOCK_TIMEOUT_MS = 10_000;

/** pg-pool's own error when a queued connect() waited connectionTimeoutMillis in vain. */
const isQueueTimeout = (error: unknown) => error instanceof Error && error.message === 'timeout exceeded when trying to connect';

/**
 * A pool whose requests wait, up to `waitMs`, for a connection. pg-pool already queues requests
 * while it holds `max` connections; but below `max` it opens a new connection, and when
 * PostgreSQL refuses that one (max_connections reached by other instances, or still starting up)
 * the request would fail at once although one of this pool's own connections is about to be
 * released. Here such a request waits for the next release (or a short back-off) and tries again.
 */
class WaitingPool extends pg.Pool {
  constructor(
    config: pg.PoolConfig,
    private readonly waitMs: number,
    /** Set in every transaction of withTransaction(). */
    readonly lockTimeoutMs: number,
    /** Longest any of the pool's connections waits for a commit (db/commitBound.ts). */
    readonly commitTimeoutMs: number,
  ) {
    super(config);
  }

  // pool.query() calls this.connect(callback), so queries wait the same way.
  override connect(): Promise<pg.PoolClient>;
  override connect(callback: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void): void;
  override connect(
    callback?: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void,
  ): Promise<pg.PoolClient> | void {
    const acquired = this.acquire(Date.now() + this.waitMs);
    if (!callback) return acquired;
    acquired.then(
      (client) => callback(undefined, client, (release) => client.release(release as Error | boolean | undefined)),
      (error: Error) => callback(error, undefined, () => undefined),
    );
  }

  private async acquire(deadline: number): Promise<pg.PoolClient> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await this.checkOut();
      } catch (error) {
        if (isQueueTimeout(error)) throw new ConnectionWaitExpiredError(this.waitMs);
        // Refused for now, or no writable server yet (a failover under way): wait for better.
        if (!(isConnectionRefusedForNow(error) || error instanceof NoSuitableServerError) || this.ending) throw error;
        if (Date.now() >= deadline) throw new ConnectionWaitExpiredError(this.waitMs);
        await this.nextChance(deadline, attempt);
      }
    }
  }

  /**
   * One checkout, guarded from the moment pg-pool hands the client over: pg-pool removes its own
   * 'error' listener then, and an error already in the same network read (a backend terminated
   * right after connecting) would be emitted before an awaiting caller could add one, which would
   * end the process.
   */
  private checkOut(): Promise<pg.PoolClient> {
    return new Promise((resolve, reject) => {
      super.connect((error, client) => {
        if (error || !client) return reject(error);
        boundCommits(client, this.commitTimeoutMs);
        resolve(guard(client));
      });
    });
  }

  /** Until one of our connections is released, a jittered back-off passes, or the wait runs out. */
  private nextChance(deadline: number, attempt: number): Promise<void> {
    const backoff = backoffDelayMs(attempt, { firstMs: 25, maxMs: 250 });
    const delay = Math.max(0, Math.min(backoff, deadline - Date.now()));
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.off('release', done);
        resolve();
      };
      const timer = setTimeout(done, delay);
      this.on('release', done);
    });
  }
}

/**
 * Keeps a checked-out client's connection failure from becoming an unhandled 'error' event (which
 * ends the process): the failure is noted, the queries in progress fail as usual, and on release
 * the client is handed back with the error, so that the pool discards it instead of lending the
 * dead connection to the next request.
 */
function guard(client: pg.PoolClient): pg.PoolClient {
  let lost: Error | undefined;
  const onError = (error: Error) => {
    lost ??= error;
  };
  client.on('error', onError);
  const release = client.release;
  client.release = (error?: Error | boolean) => {
    // pg-pool puts its idle listener back first, so the client is never without one.
    release(error || lost);
    client.off('error', onError);
  };
  return client;
}

/** Longest a statement runs by default (MINIQUEUE_DB_STATEMENT_TIMEOUT_SECONDS). */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 30_000;

/**
 * Longest a write waits for its commit by default (MINIQUEUE_DB_COMMIT_TIMEOUT_SECONDS). A commit
 * takes milliseconds, a synchronous standby's confirmation among them; one that takes seconds waits
 * for a standby that is not there, and a client is better told 503 than left waiting.
 */
export const DEFAULT_COMMIT_TIMEOUT_MS = 10_000;

export interface PoolSettings {
  /** Every statement on the pool's connections is cancelled after this long (57014, answered 503). */
  statementTimeoutMs?: number;
  /** How the pool's sessions show in pg_stat_activity. */
  applicationName?: string;
  /** With a multi-host URL: the dashboard's reads may go to a standby (target_session_attrs=prefer-standby). */
  purpose?: Purpose;
  /** A commit not confirmed within this long fails with CommitOutcomeUnknownError (503), its connection closed. */
  commitTimeoutMs?: number;
}

export function createPool(
  connectionString: string,
  max: number,
  waitMs = DEFAULT_CONNECTION_WAIT_MS,
  lockTimeoutMs = DEFAULT_LOCK_TIMEOUT_MS,
  settings: PoolSettings = {},
): pg.Pool {
  const pool = new WaitingPool(
    {
      connectionString,
      max,
      // A queued request waits this long for one of the pool's connections to come back.
      connectionTimeoutMillis: waitMs,
      idleTimeoutMillis: 30_000,
      application_name: settings.applicationName ?? 'miniqueue',
      // Set once per connection, in the startup packet (no round trip per statement): no statement
      // can hold a connection for longer, whatever it reads (a day of rates held every connection
      // for 7 s before the dashboard had its own pool and per-minute totals).
      statement_timeout: Math.round(settings.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS),
      // No JIT: the broker's statements are short, and the planner's estimates for rows that come
      // from JSON parameters are far too high, which pushes them over jit_above_cost. Compiling
      // then took 35 ms of a 1 ms claim on PostgreSQL 15 (EXPLAIN ANALYZE, "JIT: Total 35.7 ms").
      options: '-c jit=off',
      // A multi-host URL: each connection goes to the server that suits it, checked (db/targetedClient.ts).
      ...(isTargeted(connectionString) ? { Client: TargetedClient, purpose: settings.purpose ?? 'writes' } : {}),
    } as pg.PoolConfig,
    waitMs,
    lockTimeoutMs,
    Math.round(settings.commitTimeoutMs ?? DEFAULT_COMMIT_TIMEOUT_MS),
  );
  pool.setMaxListeners(0);
  // An idle client's connection can drop (database restart); the pool replaces it. Without a
  // listener the 'error' event would crash the process.
  pool.on('error', () => undefined);
  return pool;
}

/** How long the pool's connections wait for a commit (ms). */
export const commitTimeoutOf = (pool: pg.Pool) => (pool instanceof WaitingPool ? pool.commitTimeoutMs : DEFAULT_COMMIT_TIMEOUT_MS);

/** The lock timeout each of the pool's transactions starts with (ms). */
export const lockTimeoutOf = (pool: pg.Pool) => Math.round(pool instanceof WaitingPool ? pool.lockTimeoutMs : DEFAULT_LOCK_TIMEOUT_MS);

/**
 * Runs `work` in one transaction on one connection; rolls back on any error. Every transaction
 * waits at most the pool's lock timeout for each lock (SET LOCAL: it ends with the transaction,
 * so statements outside transactions, and the next user of the connection, are unaffected). A
 * connection that dies meanwhile fails the transaction (PostgreSQL aborts it with the session)
 * and is discarded on release (see guard()). A COMMIT not confirmed within the pool's commit
 * timeout fails with CommitOutcomeUnknownError, its connection closed (db/commitBound.ts).
 */
export async function withTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    // One round trip; the value is a whole number of milliseconds, not text from outside.
    await client.query(`BEGIN; SET LOCAL lock_timeout = ${lockTimeoutOf(pool)}`);
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
