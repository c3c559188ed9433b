import type { Config } from '../config.js';
import type { ClaimRequest } from '../broker/claim.js';
import type { Publisher } from '../broker/publish.js';
import type { Settler } from '../broker/settle.js';
import type { MessageRow } from '../db/queries/messageRow.js';
import type { RateLimits } from '../http/rateLimit.js';
import type { Metrics } from '../metrics.js';
import type { RateCounter } from '../stats/rateCounter.js';

/** What a stream tells its client of its bounds in `welcome` (asyncapi.yaml: StreamLimits). */
export interface StreamLimits {
  max_message_bytes: number;
  max_unconfirmed: number;
  max_subscriptions: number;
  max_prefetch: number;
  resume_grace_ms: number;
}

/** What a stream needs of the broker: the same publish, claim and settle paths as HTTP. */
export interface StreamDeps {
  config: Pick<Config, 'maxPayloadBytes'>;
  limits: StreamLimits;
  publisher: Publisher;
  settler: Settler;
  claim(request: ClaimRequest): Promise<MessageRow[]>;
  queueExists(queue: string): Promise<boolean>;
  /** The messages of these ids the holder still holds. */
  heldBy(ids: string[], holder: string): Promise<MessageRow[]>;
  metrics: Metrics;
  rates: RateCounter;
  rateLimits: RateLimits;
  log(message: string, error?: unknown): void;
}
