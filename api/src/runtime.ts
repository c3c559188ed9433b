import type { ScheduledTask } from 'node-cron';
import type { Config } from './config.js';
import { createPool, type Pool } from './db/pool.js';
import { startEmbeddedDatabase, type EmbeddedDatabase } from './db/embedded.js';
import { migrate } from './db/migrate.js';
import { ensureAdmin } from './auth/bootstrap.js';
import { NotificationBus } from './realtime/bus.js';
import { createServer, type Broker } from './server.js';
import { scheduleJob } from './jobs/job.js';
import { leaseSweeper } from './jobs/leaseSweeper.js';
import { retention } from './jobs/retention.js';
import { liveTableVacuumJob } from './jobs/liveTableVacuum.js';
import { idempotencyCleanup } from './jobs/idempotencyCleanup.js';
import { authSweeper } from './jobs/authSweeper.js';

export interface Logger {
  info(message: string): void;
  error(message: string, error?: unknown): void;
  /**
   * The first start on an empty database made an admin key. Called at once, before the server
   * listens, so the key is shown even when listening then fails.
   */
  newAdminKey?(key: string): Promise<void>;
}

export interface Runtime {
  broker: Broker;
  pool: Pool;
  url: string;
  embedded?: EmbeddedDatabase;
  stop(): Promise<void>;
}

/**
 * Everything a running broker is: database (embedded unless DATABASE_URL is set), migrations,
 * admin bootstrap, notification bus, HTTP server and background jobs.
 */
export async function startRuntime(config: Config, log: Logger): Promise<Runtime> {
  const embedded = config.databaseUrl ? undefined : await startEmbeddedDatabase(config.dataDir);
  const databaseUrl = config.databaseUrl ?? (embedded as EmbeddedDatabase).url;
  const applied = await migrate(databaseUrl);
  if (applied.length > 0) log.info(`applied migrations: ${applied.join(', ')}`);
  const pool = createPool(databaseUrl, config.dbPoolSize, config.dbConnectionWaitMs);
  const newAdminKey = await ensureAdmin(pool, config.bootstrapAdminKey);
  if (newAdminKey) await log.newAdminKey?.(newAdminKey);
  const bus = new NotificationBus(databaseUrl, (message, error) => log.error(message, error));
  await bus.start();
  // Acked history needs this hour's partition before the first ack (the default one would take it).
  const retentionJob = retention(pool, config);
  await retentionJob.runOnce();
  const broker = await createServer({ config, pool, bus });
  await broker.server.start();
  const onJobError = (error: unknown) => log.error('background job failed', error);
  const { changes, metrics } = broker.context;
  const tasks: ScheduledTask[] = [
    scheduleJob(leaseSweeper(pool, changes, (rows) => metrics.recordReturned(rows, true)), `*/${config.sweepIntervalSeconds} * * * * *`, onJobError),
    scheduleJob(retentionJob, '41 * * * * *', onJobError),
    scheduleJob(liveTableVacuumJob(pool), '*/5 * * * * *', onJobError),
    scheduleJob(idempotencyCleanup(pool, config.idempotencyTtlHours), '17 */10 * * * *', onJobError),
    // Every 15 s: an expired session's open sockets close within that.
    scheduleJob(authSweeper(pool), '*/15 * * * * *', onJobError),
  ];
  return {
    broker,
    pool,
    url: broker.server.info.uri,
    embedded,
    async stop() {
      await Promise.all(tasks.map((task) => task.stop()));
      await broker.stop();
      await bus.stop();
      await pool.end();
      await embedded?.stop();
    },
  };
}
