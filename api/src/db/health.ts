import type pg from 'pg';
import { isConnectionRefusedForNow } from './errors.js';
import { newClient } from './targetedClient.js';

/** A check that takes longer than this says the database is down. */
const CHECK_TIMEOUT_MS = 2_000;
/** Probes arriving within this long of a finished check get its answer. */
const REUSE_MS = 1_000;

/**
 * Whether the database answers, for /actuator/health. It does not borrow from the request pool:
 * when every pooled connection is busy the database is still up, and a probe that waited in the
 * pool's queue would say otherwise (and take a connection from a request). Each check opens one
 * short connection of its own; concurrent probes share one check, and a check's answer is reused
 * for a second, so probes cost at most one connection at a time and about one a second.
 */
export class DatabaseHealth {
  private running?: Promise<boolean>;
  private last?: { at: number; up: boolean };

  constructor(private readonly config: pg.ClientConfig) {}

  isUp(): Promise<boolean> {
    if (this.last && Date.now() - this.last.at < REUSE_MS) return Promise.resolve(this.last.up);
    this.running ??= this.check()
      .then((up) => {
        this.last = { at: Date.now(), up };
        return up;
      })
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  private async check(): Promise<boolean> {
    // With a multi-host URL this connects only to a writable server: none reachable is DOWN.
    const client = newClient({
      ...this.config,
      application_name: 'miniqueue-health',
      connectionTimeoutMillis: CHECK_TIMEOUT_MS,
      query_timeout: CHECK_TIMEOUT_MS,
    });
    // A connection dying during the check fails the check; it must not raise an unhandled 'error'.
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('SELECT 1');
      return true;
    } catch (error) {
      // Refused for being full (or starting up), PostgreSQL has answered: it is up, and this
      // instance keeps serving with the connections its pool already holds.
      return isConnectionRefusedForNow(error);
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}
