import type { Config } from '../config.js';
import type { Pool } from '../db/pool.js';
import type { CredentialResolver } from '../auth/credentials.js';
import type { RateLimits } from '../auth/rateLimits.js';
import type { BrokerCore } from '../brokerCore.js';
import type { NotificationBus } from '../realtime/bus.js';
import type { LongPollCredentials } from './longPollCredentials.js';

/** What route handlers need: the broker core's paths (brokerCore.ts) and the HTTP side's own parts; built once per server. */
export interface AppContext extends Pick<
  BrokerCore,
  'instanceId' | 'changes' | 'waiters' | 'notifications' | 'publisher' | 'claimer' | 'settler' | 'rates' | 'metrics' | 'dashboardPool' | 'pushTargets'
> {
  config: Config;
  pool: Pool;
  bus: NotificationBus;
  credentials: CredentialResolver;
  /** The credentials of the long polls waiting here, watched for changes. */
  longPollCredentials: LongPollCredentials;
  rateLimits: RateLimits;
  version: string;
}
