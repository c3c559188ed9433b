import type { Config } from './config.js';
import { createPool, type Pool } from './db/pool.js';
import { startEmbeddedDatabase, type EmbeddedDatabase } from './db/embedded.js';
import { migrate } from './db/migrate.js';
import { ensureAdmin } from './auth/bootstrap.js';
import { NotificationBus } from './realtime/bus.js';
import { createServer, type Broker } from './server.js';
import { createBrokerCore } from './brokerCore.js';
import { createLogger } from './logging.js';
import { reportServiceHealth } from './http/routes/ops.js';
import { JobService } from './jobs/job.js';
import { leaseSweeper } from './jobs/leaseSweeper.js';
import { expirySweeper } from './jobs/expirySweeper.js';
import { retention } from './jobs/retention.js';
import { liveTableVacuumJob } from './jobs/liveTableVacuum.js';
import { idempotencyCleanup } from './jobs/idempotencyCleanup.js';
import { authSweeper } from './jobs/authSweeper.js';
import { ratePrune } from './jobs/ratePrune.js';
import { orderingGroupCleanup } from './jobs/orderingGroupCleanup.js';
import { serviceOf } from './lifecycle/lifecycle.js';
import type { ServiceHealth } from './lifecycle/service.js';
import { ServiceGroup } from './lifecycle/serviceGroup.js';
import { backoffDelayMs } from './lifecycle/backoff.js';
import { isDatabaseUnavailable } from './db/errors.js';

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
  /** Every service, in the order they started. */
  health(): ServiceHealth[];
  /** Stops every service, in the reverse of the order they started. */
  stop(): Promise<void>;
}

/**
 * Everything a running broker is, started in order: database (embedded unless DATABASE_URL is
 * set), migrations, pool, admin bootstrap, notification bus, the broker core's services
 * (brokerCore.ts), the HTTP side's, the background jobs, then the HTTP server. Each part is started after what it uses and stopped before
 * it; a start that fails stops what had started.
 *
 * A database that takes no connection now (at its connection limit because other instances hold
 * them, starting up, or not reachable yet) is waited for: the whole start is tried again, with
 * backoff, for config.dbStartupRetryMs, so that instances started together (a deployment, a
 * restart after an outage) come up as connections free instead of exiting at the first refusal.
 */
export async function startRuntime(config: Config, log: Logger): Promise<Runtime> {
  const deadline = Date.now() + config.dbStartupRetryMs;
  for (let attempt = 0; ; attempt += 1) {
    const services = new ServiceGroup();
    try {
      return await startInOrder(services, config, log);
    } catch (error) {
      await services.stop().catch(() => undefined);
      const left = deadline - Date.now();
      if (!isDatabaseUnavailable(error) || left <= 0) throw error;
      const wait = Math.min(backoffDelayMs(attempt, STARTUP_BACKOFF), left);
      log.error(`the database takes no connection now; starting again in ${(wait / 1000).toFixed(1)} s`, error);
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/** Start attempts while the database refuses: soon at first, then every few seconds. */
const STARTUP_BACKOFF = { firstMs: 250, maxMs: 5_000 };

async function startInOrder(services: ServiceGroup, config: Config, log: Logger): Promise<Runtime> {
  const embedded = config.databaseUrl ? undefined : await startEmbeddedDatabase(config.dataDir);
  if (embedded) await services.start(serviceOf('embedded-postgres', { stop: () => embedded.stop() }));
  const databaseUrl = config.databaseUrl ?? (embedded as EmbeddedDatabase).url;
  const applied = await migrate(databaseUrl);
  if (applied.length > 0) log.info(`applied migrations: ${applied.join(', ')}`);
  const pool = createPool(databaseUrl, config.dbPoolSize, config.dbConnectionWaitMs, config.dbLockTimeoutMs, {
    statementTimeoutMs: config.dbStatementTimeoutMs,
    commitTimeoutMs: config.dbCommitTimeoutMs,
  });
  await services.start(serviceOf('database-pool', { stop: () => pool.end() }));
  const newAdminKey = await ensureAdmin(pool, config.bootstrapAdminKey);
  if (newAdminKey) await log.newAdminKey?.(newAdminKey);
  const bus = await services.start(new NotificationBus(databaseUrl, (message, error) => log.error(message, error)));
  // Acked history needs this hour's partition before the first ack (the default one would take it).
  const retentionJob = retention(pool, config);
  await retentionJob.runOnce();
  const logger = createLogger(config.logLevel);
  const core = createBrokerCore({
    config,
    pool,
    bus,
    logError: (message, error) => logger.error({ err: error }, message),
    log: (level, message, fields) => logger[level](fields, message),
  });
  await services.startAll(core.services);
  const broker = await createServer({ config, pool, bus, core, logger });
  await services.startAll(broker.services);
  // The jobs before the HTTP server: on stop, requests are drained first, while the jobs still run.
  const onJobError = (message: string, error: unknown) => log.error(`background job: ${message}`, error);
  await services.startAll([
    new JobService(leaseSweeper(pool, core.changes), `*/${config.sweepIntervalSeconds} * * * * *`, onJobError),
    new JobService(expirySweeper(pool, core.changes), `*/${config.sweepIntervalSeconds} * * * * *`, onJobError),
    new JobService(retentionJob, '41 * * * * *', onJobError),
    new JobService(liveTableVacuumJob(pool), '*/5 * * * * *', onJobError),
    new JobService(ratePrune(pool), '29 * * * * *', onJobError),
    new JobService(orderingGroupCleanup(pool), '53 * * * * *', onJobError),
    new JobService(idempotencyCleanup(pool, config.idempotencyTtlHours), '17 */10 * * * *', onJobError),
    // Every 15 s: an expired session's open sockets close within that.
    new JobService(authSweeper(pool), '*/15 * * * * *', onJobError),
  ]);
  reportServiceHealth(broker.server, () => services.health());
  await services.start(broker.http);
  return {
    broker,
    pool,
    url: broker.server.info.uri,
    embedded,
    health: () => services.health(),
    stop: () => services.stop(),
  };
}
