import { randomUUID } from 'node:crypto';
import { ensure, step } from './expect.js';
import type { Check } from './types.js';

/** Long enough for a busy broker, short enough that a lost message fails the run quickly. */
const WAIT_SECONDS = 5;

export const publishConsumeAck: Check = {
  name: 'publish-consume-ack',
  async run(context) {
    const { topic, queue } = await context.topicWithQueue('flow');
    const producer = context.as((await context.clientWith('producer', [`publish:${topic}`])).key);
    const consumer = context.as((await context.clientWith('consumer', [`consume:${queue}`])).key);
    const payload = JSON.stringify({ smoke: randomUUID() });
    const published = await step('publish', () => producer.publish(topic, payload, { headers: { source: 'smoke' } }));
    ensure(published.queues.includes(queue), `publish reached ${published.queues.join(', ') || 'no queue'}, not ${queue}`);
    const message = await step('consume', () => consumer.consume(queue, { waitSeconds: WAIT_SECONDS }));
    ensure(message, `consume found no message within ${WAIT_SECONDS} s`);
    ensure(message.payload === payload && message.headers?.source === 'smoke', 'consume returned another payload or headers');
    ensure(message.status === 'UNACKED', `a consumed message is ${message.status}, not UNACKED`);
    const acked = await step('ack', () => consumer.ack(message.message_id));
    ensure(acked.status === 'ACKED', `ack answered ${acked.status}, not ACKED`);
    const again = await step('consume after the ack', () => consumer.consume(queue));
    ensure(again === null, 'the acked message was delivered again');
    return 'published, consumed and acked by clients with only those scopes';
  },
};

export const deadLetter: Check = {
  name: 'dead-letter',
  async run(context) {
    const { admin } = context;
    const { topic, queue } = await context.topicWithQueue('dlq', 1);
    await step('publish', () => admin.publish(topic, 'poison'));
    const first = await step('consume', () => admin.consume(queue, { waitSeconds: WAIT_SECONDS }));
    ensure(first, `consume found no message within ${WAIT_SECONDS} s`);
    const nacked = await step('nack with requeue=false', () => admin.nack(first.message_id, { requeue: false }));
    ensure(nacked.status === 'DEAD', `nack with requeue=false answered ${nacked.status}, not DEAD`);
    const dead = await step('list the DLQ', () => admin.dlq.list({ queue }));
    ensure(
      dead.items.some((m) => m.message_id === first.message_id),
      'the nacked message is not in the DLQ',
    );
    const replayed = await step('replay', () => admin.dlq.replay(first.message_id));
    ensure(replayed.status === 'PENDING', `replay answered ${replayed.status}, not PENDING`);
    const back = await step('consume the replayed message', () => admin.consume(queue, { waitSeconds: WAIT_SECONDS }));
    ensure(back?.message_id === first.message_id, 'the replayed message did not come back');
    ensure(back.retry_count === 0, `the replayed message has retry count ${back.retry_count}, not 0`);
    await step('ack the replayed message', () => admin.ack(back.message_id));
    return 'nack requeue=false → DEAD → listed in the DLQ → replayed → consumed again';
  },
};

export const idempotency: Check = {
  name: 'idempotency',
  async run(context) {
    const { admin } = context;
    const { topic, queue } = await context.topicWithQueue('idempotency');
    const idempotencyKey = `smoke-${randomUUID()}`;
    const first = await step('publish', () => admin.publish(topic, 'once', { idempotencyKey }));
    const second = await step('publish again with the same key', () => admin.publish(topic, 'once', { idempotencyKey }));
    ensure(second.duplicate, 'the second publish with the same key was not answered as a duplicate');
    ensure(second.message_ids.join() === first.message_ids.join(), 'the second publish answered other message ids');
    const stored = await step('list the queue', () => admin.queues.messages(queue));
    ensure(stored.items.length === 1, `${stored.items.length} messages were stored for one idempotency key`);
    return 'the same Idempotency-Key twice stores one message';
  },
};
