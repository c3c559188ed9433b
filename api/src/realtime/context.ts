import type { Config } from '../config.js';
import type { Pool } from '../db/pool.js';
import type { CredentialResolver } from '../auth/credentials.js';
import type { RateLimits } from '../auth/rateLimits.js';
import type { Changes } from '../broker/changes.js';
import type { StreamContext } from '../stream/wiring.js';
import type { NotificationBus } from './bus.js';
import type { NotificationSender } from './notificationSender.js';

/**
 * What the WebSocket side needs of the broker, declared here so that realtime depends on the
 * broker core and auth, never on the HTTP layer that happens to hand it over.
 */
export interface RealtimeContext extends StreamContext {
  config: Config;
  pool: Pool;
  /** Who a handshake is (API key or session). */
  credentials: CredentialResolver;
  /** Handshakes spend the same tokens as HTTP requests. */
  rateLimits: RateLimits;
  bus: NotificationBus;
  /** This instance's commits: the ready relay and the live feed listen. */
  changes: Changes;
  notifications: NotificationSender;
  instanceId: string;
}
