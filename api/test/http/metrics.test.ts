import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaseSweeper } from '../../src/jobs/leaseSweeper.js';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { expireAllLeases, publishOne, topology } from '../helpers/fixtures.js';
import { sample, scrape as scrapeMetrics } from '../helpers/metrics.js';

let mq: TestBroker;
let scraper: string;
beforeAll(async () => {
  mq = await startTestBroker();
  await topology(mq, 'm', [{ name: 'm-q', max_retries: 0 }]);
  scraper = await mq.clientKey('prometheus', ['metrics']);
});
afterAll(() => mq.stop());

const scrape = () => scrapeMetrics(mq, scraper);

describe('/actuator/prometheus', () => {
  it('needs the metrics (or admin) scope', async () => {
    const viewer = await mq.clientKey('viewer', ['view']);
    expect((await mq.get('/actuator/prometheus', viewer)).status).toBe(403);
    expect((await mq.get('/actuator/prometheus')).status).toBe(401);
  });

  it('counters move with publish, consume, ack, nack and lease expiry; gauges show the queue', async () => {
    const before = await scrape();
    await publishOne(mq, 'm', 'one');
    await publishOne(mq, 'm', 'two');
    await publishOne(mq, 'm', 'three');
    const first = await mq.post('/api/v1/queues/m-q/consume', undefined, mq.adminKey);
    await mq.post(`/api/v1/messages/${first.body.message_id}/ack`, undefined, mq.adminKey);
    const second = await mq.post('/api/v1/queues/m-q/consume', undefined, mq.adminKey);
    await mq.post(`/api/v1/messages/${second.body.message_id}/nack`, { requeue: false }, mq.adminKey);
    await mq.post('/api/v1/queues/m-q/consume', undefined, mq.adminKey);
    await expireAllLeases(mq);
    const expired = await leaseSweeper(mq.pool, mq.broker.context.changes).runOnce();
    expect(expired).toBe(1);
    // Gauges are cached for two seconds per scrape burst.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const after = await scrape();
    const moved = (series: string) => sample(after, series) - sample(before, series);
    expect(moved('miniqueue_messages_published_total{queue="m-q"}')).toBe(3);
    expect(moved('miniqueue_messages_consumed_total{queue="m-q"}')).toBe(3);
    expect(moved('miniqueue_messages_acked_total{queue="m-q"}')).toBe(1);
    // max_retries 0: the nacked one and the expired one are both dead.
    expect(moved('miniqueue_messages_dead_total{queue="m-q"}')).toBe(2);
    expect(moved('miniqueue_publish_to_ack_seconds_count{queue="m-q"}')).toBe(1);
    expect(sample(after, 'miniqueue_queue_dead{queue="m-q"}')).toBe(2);
    expect(sample(after, 'miniqueue_queue_depth{queue="m-q"}')).toBe(0);
    expect(sample(after, 'miniqueue_queue_unacked{queue="m-q"}')).toBe(0);
    expect(after).toMatch(/miniqueue_http_request_duration_seconds_count\{route="\/api\/v1\/topics\/\{topic\}\/messages",method="POST",status="201"\} \d+/);
    expect(after).toContain('process_cpu_seconds_total');
  });

  it("shows every queue's counters from the first scrape, at 0 until something happens there", async () => {
    await topology(mq, 'z', [{ name: 'z-q' }]);
    // The queue list comes with the gauges' rows, cached for two seconds per scrape burst.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const text = await scrape();
    for (const counter of ['published', 'consumed', 'acked', 'dead', 'redelivered']) {
      expect(text).toContain(`miniqueue_messages_${counter}_total{queue="z-q"} 0\n`);
    }
  });

  it('counts redeliveries after a lease runs out', async () => {
    await topology(mq, 'r', [{ name: 'r-q', max_retries: 3 }]);
    const before = await scrape();
    await publishOne(mq, 'r', 'x');
    await mq.post('/api/v1/queues/r-q/consume', undefined, mq.adminKey);
    await expireAllLeases(mq);
    await leaseSweeper(mq.pool, mq.broker.context.changes).runOnce();
    const after = await scrape();
    const series = 'miniqueue_messages_redelivered_total{queue="r-q"}';
    expect(sample(after, series) - sample(before, series)).toBe(1);
  });
});

describe('request logs', () => {
  it('one line per request with id, route, status and duration; no credential, no payload', async () => {
    const logs: string[] = [];
    const logged = await startTestBroker({ logs });
    try {
      await topology(logged, 'l', [{ name: 'l-q' }]);
      logs.length = 0;
      await logged.post('/api/v1/topics/l/messages', { payload: 'top-secret-payload-42' }, logged.adminKey);
      const lines = logs.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line));
      const request = lines.find((line) => line.msg?.startsWith('POST /api/v1/topics/{topic}/messages 201'));
      expect(request).toMatchObject({ req_id: expect.any(String), res: { status: 201 }, responseTime: expect.any(Number) });
      expect(logs.join('\n')).not.toContain('top-secret-payload-42');
      expect(logs.join('\n')).not.toContain(logged.adminKey);
    } finally {
      await logged.stop();
    }
  });
});

describe('group commit metrics', () => {
  it('count statements and the requests they carry, per kind', async () => {
    const before = await scrape();
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => mq.post('/api/v1/topics/m/messages', { payload: `g${i}` }, mq.adminKey)));
    expect(answers.every((answer) => answer.status === 201)).toBe(true);
    const after = await scrape();
    const delta = (series: string) => sample(after, series) - sample(before, series);
    expect(delta('miniqueue_group_commit_requests_total{kind="publish"}')).toBe(40);
    // 40 requests at once shared statements.
    const statements = delta('miniqueue_group_commit_statements_total{kind="publish"}');
    expect(statements).toBeGreaterThan(0);
    expect(statements).toBeLessThan(40);
    expect(delta('miniqueue_group_commit_seconds_total{kind="publish"}')).toBeGreaterThan(0);
  });
});
