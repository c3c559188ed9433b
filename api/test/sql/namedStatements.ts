import { idempotencyFind } from '../../src/db/queries/idempotency.js';
import { messageClaim, messageHeldBy, messageNextAvailable } from '../../src/db/queries/messageClaim.js';
import { messageRelease } from '../../src/db/queries/messageRelease.js';
import { messageClaimGated, queueActiveConsumerResign } from '../../src/db/queries/messageClaimGated.js';
import { messageExpireLeases } from '../../src/db/queries/messageExpire.js';
import { messageExpireTtl } from '../../src/db/queries/messageTtl.js';
import { messageFindById } from '../../src/db/queries/messageFind.js';
import { messagePublish, type PublishRowItem } from '../../src/db/queries/messagePublish.js';
import { messageAck, messageExtend, messageFindState, messageNack } from '../../src/db/queries/messageSettle.js';
import { orderingGroupsForgetIdle, orderingPromoteStalled } from '../../src/db/queries/orderingGroup.js';
import { ratesFlush, ratesSeries } from '../../src/db/queries/rates.js';
import { consumersByQueue, statsByQueue, statsOverview } from '../../src/db/queries/stats.js';
import { queueBoundsExceeded, queueBoundsLock, queueOverflowTrim } from '../../src/db/queries/queueBounds.js';
import { StatementRecorder } from './statementRecorder.js';

const ID = '00000000-0000-7000-8000-000000000000';
const HOLDER = { holder: 'client:instance', consumerId: 'consumer', queues: null };
const ITEM: PublishRowItem = { topic: 'orders', payload: '{}', headers: {}, delaySeconds: 0 };

/**
 * Every named statement the broker prepares, by calling each query function that sends one.
 *
 * A named statement's text never depends on its parameters: pg prepares a name once per
 * connection and refuses the same name with another text (the recorder checks that too). Where a
 * query is assembled differently for different calls, each shape is a statement of its own name,
 * and each is called here:
 * - publish: `message_publish` (no ordering key, each item on its own), `message_publish_all_or_nothing`
 *   (no key, one refused item stops the call), `message_publish_keyed` (any item with a key), and the
 *   same three for topics with a bounded queue: `message_publish_bounded`,
 *   `message_publish_bounded_all_or_nothing`, `message_publish_keyed_bounded`;
 * - rate series: `rates_series_buckets` (5-second buckets) and `rates_series_minutes` (per-minute totals);
 * - ack and nack: `message_ack` / `message_nack`, and with tracing on `message_ack_traced` /
 *   `message_nack_traced`, and the lease sweep's `message_expire_leases_traced` (which also return
 *   each message's trace headers), and the expiry sweep's `message_expire_ttl`.
 * Batch sizes never change a text: batches travel as one JSON parameter.
 */
export async function namedStatements(): Promise<StatementRecorder> {
  const recorder = new StatementRecorder();
  const calls: ((db: StatementRecorder['db']) => Promise<unknown>)[] = [
    (db) => messagePublish(db, [ITEM], 24),
    (db) => messagePublish(db, [ITEM], 24, true),
    (db) => messagePublish(db, [{ ...ITEM, orderingKey: 'customer-1' }], 24),
    (db) => idempotencyFind(db, [{ owner: 'client', key: 'key' }]),
    (db) => messageClaim(db, [{ queue: 'q', holder: HOLDER.holder, consumerId: HOLDER.consumerId, limit: 1 }]),
    (db) => messageNextAvailable(db, 'q'),
    (db) => messageRelease(db, [{ id: ID, retryCount: 0 }], HOLDER.holder),
    (db) => messageHeldBy(db, [ID], HOLDER.holder),
    (db) => messageAck(db, [{ ref: 0, id: ID, holder: HOLDER }], 24),
    (db) => messageAck(db, [{ ref: 0, id: ID, holder: HOLDER }], 24, true),
    (db) => messageNack(db, [{ ref: 0, id: ID, holder: HOLDER, requeue: true, delaySeconds: 0, reason: null }]),
    (db) => messageNack(db, [{ ref: 0, id: ID, holder: HOLDER, requeue: true, delaySeconds: 0, reason: null }], true),
    (db) => messageExtend(db, [{ ref: 0, id: ID, holder: HOLDER, seconds: 30 }]),
    (db) => messageFindState(db, [ID]),
    (db) => messageExpireLeases(db, 100),
    (db) => messageExpireLeases(db, 100, true),
    (db) => messageExpireTtl(db, 100),
    (db) => messageFindById(db, ID, 24),
    (db) => orderingPromoteStalled(db, 100),
    (db) => orderingGroupsForgetIdle(db, 100),
    (db) => ratesFlush(db, { queues: [], topics: [], pollers: [] }, null),
    (db) => ratesSeries(db, { queue: null, fromMs: 0, resolutionSeconds: 5, source: 'buckets' }),
    (db) => ratesSeries(db, { queue: null, fromMs: 0, resolutionSeconds: 60, source: 'minutes' }),
    (db) => statsOverview(db),
    (db) => statsByQueue(db),
    (db) => consumersByQueue(db),
    (db) => messageClaimGated(db, [{ queue: 'q', holder: HOLDER.holder, consumerId: HOLDER.consumerId, limit: 1, holdSeconds: 5 }]),
    (db) => queueActiveConsumerResign(db, ['q'], HOLDER.holder),
    (db) => messagePublish(db, [ITEM], 24, false, true),
    (db) => messagePublish(db, [ITEM], 24, true, true),
    (db) => messagePublish(db, [{ ...ITEM, orderingKey: 'customer-1' }], 24, false, true),
    (db) => queueBoundsLock(db, { topics: ['orders'] }),
    (db) => queueBoundsExceeded(db, ['q']),
    (db) => queueOverflowTrim(db, ['q']),
  ];
  for (const call of calls) await recorder.record(call);
  return recorder;
}
