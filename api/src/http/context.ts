import type { Config } from '../config.js';
import type { Pool } from '../db/pool.js';
import type { CredentialResolver } from '../auth/credentials.js';
import type { QueueWaiters } from '../broker/waiters.js';
import type { NotificationBus } from '../realtime/bus.js';
import type { Metrics } from '../metrics.js';
import type { RateLimits } from './rateLimit.js';

/** What route handlers need; built once per server. */
export interface AppContext {
  config: Config;
  pool: Pool;
  waiters: QueueWaiters;
  credentials: CredentialResolver;
  bus: NotificationBus;
  metrics: Metrics;
  rateLimits: RateLimits;
  version: string;
}
