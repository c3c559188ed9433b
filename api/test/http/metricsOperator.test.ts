import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GroupCommit } from '../../src/broker/groupCommit.js';
import { DatabaseHealth } from '../../src/db/health.js';
import { createPool } from '../../src/db/pool.js';
import { Metrics } from '../../src/metrics.js';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { topology } from '../helpers/fixtures.js';
import { sample, scrape } from '../helpers/metrics.js';

// The series an operator alerts on (prometheus/alerts.yml) besides the message counters.
let mq: TestBroker;
let scraper: string;
beforeAll(async () => {
  mq = await startTestBroker();
  scraper = await mq.clientKey('prometheus', ['metrics']);
});
afterAll(() => mq?.stop());

describe('metrics an operator alerts on', () => {
  it('count topic publishes and queue copies apart, and latency per queue', async () => {
    await topology(mq, 'fan', [{ name: 'fan-1' }, { name: 'fan-2' }, { name: 'fan-3' }]);
    const before = await scrape(mq, scraper);
    // Every series is there at 0 before anything happened on the topic.
    expect(before).toContain('miniqueue_topic_publishes_total{topic="fan"} 0');
    expect(before).toContain('miniqueue_queue_consumers{queue="fan-1"} 0');
    for (const payload of ['a', 'b']) expect((await mq.post('/api/v1/topics/fan/messages', { payload }, mq.adminKey)).status).toBe(201);
    const claimed = (await mq.post('/api/v1/queues/fan-2/consume', undefined, mq.adminKey)).body;
    expect((await mq.post(`/api/v1/messages/${claimed.message_id}/ack`, undefined, mq.adminKey)).status).toBe(200);
    const after = await scrape(mq, scraper);
    const moved = (series: string) => sample(after, series) - sample(before, series);
    expect(moved('miniqueue_topic_publishes_total{topic="fan"}')).toBe(2);
    for (const queue of ['fan-1', 'fan-2', 'fan-3']) expect(moved(`miniqueue_messages_published_total{queue="${queue}"}`)).toBe(2);
    expect(moved('miniqueue_publish_to_ack_seconds_count{queue="fan-2"}')).toBe(1);
    expect(sample(after, 'miniqueue_publish_to_ack_seconds_count{queue="fan-1"}')).toBe(0);
  });

  it('show how many consumers asked each queue in the last minute, on any instance', async () => {
    await topology(mq, 'asked', [{ name: 'asked' }, { name: 'unasked' }]);
    await mq.post('/api/v1/topics/asked/messages', { payload: 'x' }, mq.adminKey);
    const consumer = await mq.clientKey('asked-consumer', ['consume:asked']);
    for (const [key, instance] of [
      [consumer, 'a'],
      [consumer, 'b'],
      [mq.adminKey, 'a'],
    ]) {
      await mq.request('POST', '/api/v1/queues/asked/consume', { key, headers: { 'miniqueue-instance': instance } });
    }
    await mq.broker.core.rateRecorder.runOnce(); // writes who asked (every 5 s in a running broker)
    // A Metrics of its own: the broker's caches its queue rows for 2 s, and the scrape above is newer.
    const text = (await new Metrics(mq.pool).render()).body;
    expect(sample(text, 'miniqueue_queue_consumers{queue="asked"}')).toBe(3);
    expect(text).toContain('miniqueue_queue_consumers{queue="unasked"} 0');
  });

  it('say whether the database answers, and a scrape still answers when it does not', async () => {
    const up = await scrape(mq, scraper);
    expect(sample(up, 'miniqueue_database_up')).toBe(1);
    // A database nobody listens on: the queue series are left out, the scrape is not failed.
    const unreachable = createPool('postgresql://nobody@127.0.0.1:1/none', 2, 500);
    try {
      const metrics = new Metrics(unreachable);
      metrics.watchDatabase(() => new DatabaseHealth(unreachable).isUp());
      const text = (await metrics.render()).body;
      expect(sample(text, 'miniqueue_database_up')).toBe(0);
      expect(text).not.toContain('miniqueue_queue_depth{');
      expect(text).toContain('process_cpu_seconds_total');
    } finally {
      await unreachable.end();
    }
  });

  it('count what group commit refused when too many requests waited', async () => {
    const metrics = new Metrics(mq.pool);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const commit = new GroupCommit<number, number>(
      async (batch) => {
        await held;
        return batch;
      },
      { maxBatch: 1, maxInFlight: 1, maxWaiting: 2, isFinal: () => false },
    );
    metrics.watchGroupCommits({ publish: commit.stats });
    const submitted = [1, 2, 3, 4, 5].map((n) => commit.submit(n).catch((error: Error) => error));
    release();
    const outcomes = await Promise.all(submitted);
    const refused = outcomes.filter((outcome) => outcome instanceof Error).length;
    expect(refused).toBeGreaterThan(0);
    const text = (await metrics.render()).body;
    expect(sample(text, 'miniqueue_group_commit_refused_total{kind="publish"}')).toBe(refused);
  });
});
