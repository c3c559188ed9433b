import { claimMessages } from '../broker/claim.js';
import { messageHeldBy, messageRelease } from '../db/queries/messageClaim.js';
import { queueExists } from '../db/queries/queue.js';
import { singleBodyLimit } from '../http/routes/publish.js';
import type { AppContext } from '../http/context.js';
import { MAX_PREFETCH } from './frames.js';
import { Streams } from './streams.js';
import type { StreamLimits } from './streamDeps.js';

/** Subscriptions one stream may hold. */
const MAX_SUBSCRIPTIONS = 100;

export type StreamContext = Pick<
  AppContext,
  'config' | 'pool' | 'publisher' | 'claimer' | 'settler' | 'waiters' | 'changes' | 'metrics' | 'rates' | 'rateLimits'
>;

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

/** The instance's streams, on the broker's own publish, claim and settle paths. */
export function createStreams(context: StreamContext, log: (message: string, error?: unknown) => void): Streams {
  const { pool } = context;
  return new Streams({
    config: context.config,
    limits: streamLimitsOf(context.config),
    publisher: context.publisher,
    settler: context.settler,
    claim: (request) => claimMessages(context, request),
    queueExists: (queue) => queueExists(pool, queue),
    heldBy: (ids, holder) => messageHeldBy(pool, ids, holder),
    release: (held, holder) => messageRelease(pool, held, holder),
    metrics: context.metrics,
    rates: context.rates,
    rateLimits: context.rateLimits,
    changes: context.changes,
    log,
  });
}

