import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expirySweeper } from '../../src/jobs/expirySweeper.js';
import { leaseSweeper } from '../../src/jobs/leaseSweeper.js';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { expireAllLeases, topology } from '../helpers/fixtures.js';
import { sample, scrape } from '../helpers/metrics.js';

/**
 * A dead letter routed to its queue's dead_letter_topic is published there (by the death's own
 * statement): it counts as a publish to that topic and as a copy to each of its queues, in the
 * metrics and in the dashboard's rates, as a publish through the API does, so that Grafana and the
 * backlog alert see the dead-letter topic's queues fill.
 */
let mq: TestBroker;
let scraper: string;

beforeAll(async () => {
  mq = await startTestBroker({ env: { MINIQUEUE_RATE_LIMIT_ENABLED: 'false' } });
  scraper = await mq.clientKey('prometheus', ['metrics']);
});
afterAll(() => mq?.stop());

const publishTo = async (topic: string, body: Record<string, unknown>) => {
  const response = await mq.post(`/api/v1/topics/${topic}/messages`, body, mq.adminKey);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return Object.fromEntries((response.body.queues as string[]).map((queue, i) => [queue, response.body.message_ids[i] as string]));
};
const receiveOne = async (queue: string) =>
  (await mq.post(`/api/v1/queues/${queue}/receive`, { max_messages: 1 }, mq.adminKey)).body.messages[0].message_id as string;
const counts = async () => {
  const text = await scrape(mq, scraper);
  return {
    topic: sample(text, 'miniqueue_topic_publishes_total{topic="p-paths.dead"}'),
    copiesA: sample(text, 'miniqueue_messages_published_total{queue="p-catch-a"}'),
    copiesB: sample(text, 'miniqueue_messages_published_total{queue="p-catch-b"}'),
  };
};
const topicRate = async (topic: string) =>
  Number((await mq.pool.query<{ n: string }>('SELECT coalesce(sum(published), 0) AS n FROM topic_rate WHERE topic_name = $1', [topic])).rows[0].n);

describe('dead letters routed to a dead-letter topic', () => {
  it('are publishes to it and copies to its queues, from every path that dead-letters: overflow, retries exhausted, lease expiry, time to live', async () => {
    await topology(mq, 'p-paths.dead', [{ name: 'p-catch-a' }, { name: 'p-catch-b' }]);
    await topology(mq, 'p-paths', [
      { name: 'p-retry', dead_letter_topic: 'p-paths.dead', max_retries: 0 },
      { name: 'p-lease', dead_letter_topic: 'p-paths.dead', max_retries: 0 },
      { name: 'p-ttl', dead_letter_topic: 'p-paths.dead' },
      { name: 'p-full', dead_letter_topic: 'p-paths.dead', max_messages: 1, overflow: 'dead_letter_oldest' },
    ]);
    const { 'p-ttl': ttl } = await publishTo('p-paths', { payload: 'one', expires_in_seconds: 600 });
    await mq.broker.core.rateRecorder.runOnce();
    const before = await counts();
    const ratedBefore = await topicRate('p-paths.dead');

    await publishTo('p-paths', { payload: 'two' }); // p-full makes room: 'one' dies of OVERFLOW
    const retried = await receiveOne('p-retry');
    expect((await mq.post(`/api/v1/messages/${retried}/nack`, { requeue: true }, mq.adminKey)).body.status).toBe('DEAD');
    await receiveOne('p-lease');
    await expireAllLeases(mq);
    await leaseSweeper(mq.pool, mq.broker.context.changes).runOnce();
    await mq.pool.query(`UPDATE message SET expires_at = now() - interval '1 millisecond' WHERE id = $1`, [ttl]);
    await expirySweeper(mq.pool, mq.broker.context.changes).runOnce();
    const { rows } = await mq.pool.query(`SELECT queue_name, count(*)::int AS n FROM message WHERE topic_name = 'p-paths.dead' GROUP BY 1 ORDER BY 1`);
    expect(rows).toEqual([
      { queue_name: 'p-catch-a', n: 4 },
      { queue_name: 'p-catch-b', n: 4 },
    ]);

    // Four deaths, each one publish to the topic and a copy to each of its two queues.
    const after = await counts();
    expect({ topic: after.topic - before.topic, copiesA: after.copiesA - before.copiesA, copiesB: after.copiesB - before.copiesB }).toEqual({
      topic: 4,
      copiesA: 4,
      copiesB: 4,
    });
    await mq.broker.core.rateRecorder.runOnce();
    expect((await topicRate('p-paths.dead')) - ratedBefore).toBe(4);
  });
});
