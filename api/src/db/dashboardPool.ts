import type { Config } from '../config.js';
import { createPool, type Pool } from './pool.js';

/**
 * The dashboard's share of the database: a small pool of its own for the dashboard's reads and the
 * Prometheus gauges, with a shorter statement timeout. However many viewers ask for a day of
 * rates at once, they queue for these few connections (and get 503 when they wait too long),
 * while publish, claim and ack keep every connection of the broker's pool.
 *
 * A pool rather than a semaphore in front of the broker's pool: the shorter timeout is set once
 * per connection in the startup packet (a semaphore over shared connections would need a SET
 * before and a RESET after every read, and a RESET lost with a failed read would leave a short
 * timeout on a connection publish uses next); its queue is its own, so a waiting read never sits
 * in the broker pool's queue ahead of a publish; and its idle connections close after 30 s, so
 * it costs nothing while nobody looks. It adds at most MINIQUEUE_DASHBOARD_DB_POOL_SIZE
 * connections per instance to what PostgreSQL must allow.
 */
export function createDashboardPool(brokerPool: Pool, config: Config): Pool {
  const connectionString = brokerPool.options.connectionString;
  if (!connectionString) throw new Error('the broker pool has no connection string to share');
  return createPool(connectionString, config.dashboardDb.poolSize, config.dbConnectionWaitMs, config.dbLockTimeoutMs, {
    statementTimeoutMs: config.dashboardDb.statementTimeoutMs,
    applicationName: 'miniqueue-dashboard',
    purpose: 'reads',
    commitTimeoutMs: config.dbCommitTimeoutMs,
  });
}
