import type { Config } from '../config.js';
import type { Pool } from '../db/pool.js';
import type { CredentialResolver } from '../auth/credentials.js';
import type { QueueWaiters } from '../broker/waiters.js';
import type { Claimer } from '../broker/claimer.js';
import type { Publisher } from '../broker/publish.js';
import type { Settler } from '../broker/settle.js';
import type { NotificationBus } from '../realtime/bus.js';
import type { Changes } from '../realtime/changes.js';
import type { NotificationSender } from '../realtime/notificationSender.js';
import type { Metrics } from '../metrics.js';
import type { RateCounter } from '../stats/rateCounter.js';
import type { RateLimits } from './rateLimit.js';
import type { LongPollCredentials } from './longPollCredentials.js';
import type { PushTargets } from '../push/targets.js';

/** What route handlers need; built once per server. */
export interface AppContext {
  config: Config;
  pool: Pool;
  /** The dashboard's reads and the gauges: a few connections of their own (db/dashboardPool.ts). */
  dashboardPool: Pool;
  waiters: QueueWaiters;
  /** The credentials of the long polls waiting here, watched for changes. */
  longPollCredentials: LongPollCredentials;
  credentials: CredentialResolver;
  bus: NotificationBus;
  /** What this instance's commits changed, told in-process after each commit. */
  changes: Changes;
  /** NOTIFYs to the other instances, sent outside any message transaction. */
  notifications: NotificationSender;
  publisher: Publisher;
  claimer: Claimer;
  settler: Settler;
  metrics: Metrics;
  /** This instance's per-bucket counts (consumers seen are added by the consume routes). */
  rates: RateCounter;
  rateLimits: RateLimits;
  /** This instance, as the others know it in notifications. */
  instanceId: string;
  version: string;
  /** Where push endpoints may be (checked when one is set, and before every delivery). */
  pushTargets: PushTargets;
}
