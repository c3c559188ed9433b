import { randomUUID } from 'node:crypto';
import type { Config } from './config.js';
import type { Pool } from './db/pool.js';
import { createDashboardPool } from './db/dashboardPool.js';
import { Changes } from './broker/changes.js';
import { Claimer } from './broker/claimer.js';
import { Publisher } from './broker/publish.js';
import { Settler } from './broker/settle.js';
import { QueueWaiters } from './broker/longPollWaiters.js';
import { WaiterRecheck } from './broker/longPollRecheck.js';
import { Wakeups } from './broker/longPollWakeups.js';
import { serviceOf } from './lifecycle/lifecycle.js';
import type { Service } from './lifecycle/service.js';
import { Metrics } from './metrics.js';
import { CONNECT_TIMEOUT_MS, DatabaseHealth } from './db/health.js';
import { PushTargets } from './push/targets.js';
import { PushWorker } from './push/pushWorker.js';
import type { NotificationBus } from './realtime/bus.js';
import { NotificationSender } from './realtime/notificationSender.js';
import { WakeupBroadcast } from './realtime/wakeupBroadcast.js';
import { RateCounter } from './stats/rateCounter.js';
import { RateRecorder } from './stats/rateRecorder.js';

/** Requests per group-committed statement at most (single publishes, acks, nacks). */
const GROUP_COMMIT_MAX_BATCH = 256;

export interface BrokerCoreDeps {
  config: Config;
  pool: Pool;
  bus: NotificationBus;
  logError(message: string, error?: unknown): void;
  /** Lines that are not errors (a failing push endpoint's), with their fields. */
  log(level: 'warn' | 'info', message: string, fields: Record<string, unknown>): void;
}

/**
 * The broker without its HTTP face: the state machine's paths (publish, claim, settle), the
 * change stream they announce their commits on, and everything that listens to it (long polls
 * here and on other instances, rates, metrics, push). The server puts routes and sockets on top;
 * the runtime starts `services` before the jobs and the server, and stops them after.
 */
export interface BrokerCore {
  /** This instance, as the others know it in notifications. */
  instanceId: string;
  /** What this instance's commits changed, told in-process after each commit. */
  changes: Changes;
  waiters: QueueWaiters;
  /** NOTIFYs to the other instances, sent outside any message transaction. */
  notifications: NotificationSender;
  publisher: Publisher;
  claimer: Claimer;
  settler: Settler;
  /** This instance's per-bucket counts (consumers seen are added by the consume paths). */
  rates: RateCounter;
  metrics: Metrics;
  /** The dashboard's reads and the gauges: a few connections of their own (db/dashboardPool.ts). */
  dashboardPool: Pool;
  /** Where push endpoints may be (checked when one is set, and before every delivery). */
  pushTargets: PushTargets;
  /** The long polls' safety net for lost notifications (tests run it directly). */
  recheck: WaiterRecheck;
  /** Writes the per-bucket counts (tests run it directly). */
  rateRecorder: RateRecorder;
  pushWorker: PushWorker;
  /** What runs in the background, in the order to start them. */
  services: Service[];
}

export function createBrokerCore({ config, pool, bus, logError, log }: BrokerCoreDeps): BrokerCore {
  const instanceId = randomUUID();
  const changes = new Changes();
  const waiters = new QueueWaiters();
  const dashboardPool = createDashboardPool(pool, config);
  const metrics = new Metrics(dashboardPool);
  changes.on('transitions', (transitions) => metrics.count(transitions));
  const databaseHealth = new DatabaseHealth(pool);
  metrics.watchDatabase(() => databaseHealth.isUpWithin(CONNECT_TIMEOUT_MS));
  // Per-bucket counts of what this instance committed, written once per bucket (src/stats/).
  const rates = new RateCounter();
  changes.on('transitions', (transitions) => rates.transitions(transitions));
  const groupCommit = {
    maxBatch: GROUP_COMMIT_MAX_BATCH,
    maxInFlight: Math.max(1, Math.floor(config.dbPoolSize / 4)),
    maxWaiting: config.groupCommitMaxWaiting,
  };
  const publisher = new Publisher({
    pool,
    changes,
    countPublishes: (topic, count) => {
      rates.published(topic, count);
      metrics.countTopicPublishes(topic, count);
    },
    countRefusedCopies: (queue, count) => metrics.countRefusedCopies(queue, count),
    idempotencyTtlHours: config.idempotencyTtlHours,
    groupCommit,
  });
  const settler = new Settler({ pool, changes, ackedRetentionHours: config.ackedRetentionHours, groupCommit });
  const claimer = new Claimer({ pool, groupCommit });
  metrics.watchGroupCommits({
    publish: publisher.groupCommitStats,
    claim: claimer.groupCommitStats,
    ack: settler.groupCommitStats.acks,
    nack: settler.groupCommitStats.nacks,
    extend: settler.groupCommitStats.extends,
  });
  const notifications = new NotificationSender(pool, logError);
  const wakeups = new Wakeups({ changes, bus, waiters, instanceId, isFair: (queue) => claimer.gated.isFair(queue) });
  // Other instances' long polls hear of this one's commits through one debounced NOTIFY.
  const broadcast = new WakeupBroadcast(notifications, changes, instanceId);
  const recheck = new WaiterRecheck(pool, waiters, logError);
  const rateRecorder = new RateRecorder(pool, rates, logError);
  const pushTargets = new PushTargets(config.push);
  // Delivers push queues' messages; without MINIQUEUE_PUSH_SECRET_KEY it starts and does nothing.
  const pushWorker = new PushWorker({
    pool,
    settler,
    changes,
    config: config.push,
    instanceId,
    targets: pushTargets,
    logError,
    log,
    countFailure: (queue, kind) => metrics.countPushFailure(queue, kind),
  });
  const services = [serviceOf('dashboard-pool', { stop: () => dashboardPool.end() }), notifications, wakeups, broadcast, recheck, rateRecorder, pushWorker];
  return {
    instanceId,
    changes,
    waiters,
    notifications,
    publisher,
    claimer,
    settler,
    rates,
    metrics,
    dashboardPool,
    pushTargets,
    recheck,
    rateRecorder,
    pushWorker,
    services,
  };
}
