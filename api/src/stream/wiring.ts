import { claimMessages } from '../broker/longPoll.js';
import { gateWaitKey } from '../broker/gatedClaims.js';
import { messageHeldBy } from '../db/queries/messageClaim.js';
import { putBack } from '../broker/putBack.js';
import { queueExists } from '../db/queries/queue.js';
import { singleBodyLimit } from '../broker/publishLimits.js';
import type { Config } from '../config.js';
import type { Pool } from '../db/pool.js';
import type { RateLimits } from '../auth/rateLimits.js';
import type { Changes } from '../broker/changes.js';
import type { Claimer } from '../broker/claimer.js';
import type { Publisher } from '../broker/publish.js';
import type { Settler } from '../broker/settle.js';
import type { QueueWaiters } from '../broker/longPollWaiters.js';
import type { RateCounter } from '../stats/rateCounter.js';
import { MAX_PREFETCH } from '@miniqueue/sdk';
import { Streams } from './streams.js';
import { BrokerOutput } from './brokerOutput.js';
import type { StreamLimits } from '@miniqueue/sdk';
import type { MonitorAccess } from './watches.js';

/** Subscriptions one stream may hold. */
const MAX_SUBSCRIPTIONS = 100;

/** What streams need of the broker: its own publish, claim and settle paths, as HTTP uses them. */
export interface StreamContext {
  config: Config;
  pool: Pool;
  publisher: Publisher;
  claimer: Claimer;
  settler: Settler;
  waiters: QueueWaiters;
  changes: Changes;
  rates: RateCounter;
  rateLimits: RateLimits;
}

export function streamLimitsOf(config: StreamContext['config']): StreamLimits {
  return {
    // As an HTTP publish's body may be: the payload's JSON escaping and its headers fit.
    max_message_bytes: singleBodyLimit(config.maxPayloadBytes),
    max_unconfirmed: config.stream.maxUnconfirmed,
    max_subscriptions: MAX_SUBSCRIPTIONS,
    max_prefetch: MAX_PREFETCH,
    resume_grace_ms: config.stream.resumeGraceMs,
  };
}

/** The instance's streams, on the broker's own publish, claim and settle paths, and its live feed. */
export function createStreams(context: StreamContext, monitor: MonitorAccess, log: (message: string, error?: unknown) => void): Streams {
  const { pool } = context;
  return new Streams({
    config: context.config,
    limits: streamLimitsOf(context.config),
    publisher: context.publisher,
    settler: context.settler,
    claim: (request) => claimMessages(context, request),
    queueExists: (queue) => queueExists(pool, queue),
    heldBy: (ids, holder) => messageHeldBy(pool, ids, holder),
    release: (held, holder) => putBack(context, held, holder),
    resign: async (queues, holder) => {
      for (const queue of await context.claimer.gated.resign(queues, holder)) context.waiters.wake(gateWaitKey(queue), Number.POSITIVE_INFINITY);
    },
    output: new BrokerOutput(context.config.stream.totalQueuedBytes),
    monitor,
    rates: context.rates,
    rateLimits: context.rateLimits,
    changes: context.changes,
    log,
  });
}
