import type { StreamLimits } from '@miniqueue/sdk';
import type { Config } from '../config.js';
import type { ClaimRequest } from '../broker/longPoll.js';
import type { Publisher } from '../broker/publish.js';
import type { Settler } from '../broker/settle.js';
import type { MessageRow } from '../db/queries/messageRow.js';
import type { RateLimits } from '../auth/rateLimits.js';
import type { RateCounter } from '../stats/rateCounter.js';
import type { MonitorAccess } from './watches.js';
import type { BrokerOutput } from './brokerOutput.js';

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
  /** What all streams of the instance have queued: past its cap, none claims. */
  output: BrokerOutput;
  /** The live feed, for watches. */
  monitor: MonitorAccess;
  rates: RateCounter;
  rateLimits: RateLimits;
  log(message: string, error?: unknown): void;
}
