import { describe, expect, it } from 'vitest';
import { DeadReason, type MiniQueue } from '../../src/index.js';
import { brokerForFile, type SdkBroker } from '../helpers/broker.js';

let env: SdkBroker;
let admin: MiniQueue;
brokerForFile((started) => {
  env = started;
  admin = started.admin;
});

describe('the dashboard data', () => {
  it('reads rates broker-wide and per queue, and the queue stats with their activity', async () => {
    await admin.topics.create('sdk.rates');
    await admin.queues.create('sdk-rates-a', 'sdk.rates');
    await admin.queues.create('sdk-rates-b', 'sdk.rates');
    await admin.publish('sdk.rates', 'one');
    await admin.publish('sdk.rates', 'two');
    await env.broker.broker.core.rateRecorder.runOnce();

    const all = await admin.dashboard.rates({ windowSeconds: 60 });
    expect(all).toMatchObject({ queue: null, window_seconds: 60, resolution_seconds: 5 });
    const total = (field: 'published' | 'enqueued') => all.buckets.reduce((sum, bucket) => sum + bucket[field], 0);
    expect([total('published'), total('enqueued')]).toEqual([2, 4]);
    expect(all.buckets[0].at).toBeInstanceOf(Date);
    const one = await admin.dashboard.rates({ queue: 'sdk-rates-a', windowSeconds: 3600, resolutionSeconds: 60 });
    expect(one.buckets.reduce((sum, bucket) => sum + bucket.enqueued, 0)).toBe(2);
    expect(one.resolution_seconds).toBe(60);

    const stats = (await admin.dashboard.queues()).find((row) => row.queue === 'sdk-rates-a');
    expect(stats).toMatchObject({ pending: 2, websocket_consumers: 0, pollers: 0 });
    expect(stats?.depth_history).toHaveLength(60);
  });

  it("lists a queue's consumers, with when each was last seen and what it holds", async () => {
    await admin.topics.create('sdk.consumers');
    await admin.queues.create('sdk-consumed', 'sdk.consumers');
    expect(await admin.dashboard.consumers('sdk-consumed')).toEqual({ queue: 'sdk-consumed', push_endpoint: false, consumers: [] });
    await admin.publish('sdk.consumers', 'held');
    const consumer = await env.client('sdk-holder', ['consume:sdk-consumed']);
    const held = await consumer.consume('sdk-consumed');
    await env.broker.broker.core.rateRecorder.runOnce();
    const listed = await admin.dashboard.consumers('sdk-consumed');
    expect(listed.consumers).toHaveLength(1);
    expect(listed.consumers[0]).toMatchObject({ consumer_id: held?.consumer_id, in_flight: 1 });
    expect(listed.consumers[0].last_seen_at).toBeInstanceOf(Date);
  });

  it('lists newest first and by header, with a total', async () => {
    for (const customer of ['1', '2', '1']) await admin.publish('sdk.rates', `for ${customer}`, { headers: { customer } });
    const newest = await admin.queues.messages('sdk-rates-a', { order: 'desc', limit: 1 });
    expect(newest.items[0].payload).toBe('for 1');
    expect([newest.total, newest.total_exact]).toEqual([5, true]);
    const found = await admin.queues.messages('sdk-rates-a', { header: { name: 'customer', value: '1' } });
    expect(found.items.map((m) => m.payload)).toEqual(['for 1', 'for 1']);
    expect(found.total).toBeNull();
  });

  it('nacks with a reason, filters the dead letters by it and replays and deletes them in bulk', async () => {
    const consumer = await env.client('sdk-dead', ['consume:sdk-rates-b']);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const message = await consumer.consume('sdk-rates-b');
      await consumer.nack(message?.message_id as string, { requeue: false, reason: `broken ${i}` });
      ids.push(message?.message_id as string);
    }
    const page = await admin.dlq.list({ queue: 'sdk-rates-b', reason: DeadReason.Nacked });
    expect(page.items.map((m) => [m.dead_reason, m.dead_detail])).toEqual([0, 1, 2].map((i) => ['NACKED', `broken ${i}`]));
    expect(page.items[0].dead_at).toBeInstanceOf(Date);
    expect((await admin.dlq.list({ reason: DeadReason.Expired })).items).toEqual([]);

    const replayed = await admin.dlq.replayIds([ids[0], ids[0]]);
    expect(replayed).toEqual({ succeeded: [ids[0]], failed: [] });
    const again = await admin.dlq.replayIds([ids[0]]);
    expect(again.failed.map((f) => [f.status, f.code])).toEqual([[409, 'message_not_dead']]);
    expect(await admin.dlq.deleteIds([ids[1]])).toEqual({ succeeded: [ids[1]], failed: [] });
    expect(await admin.dlq.replayMatching({ reason: DeadReason.Nacked })).toEqual({ replayed: 1 });
    expect(await admin.dlq.deleteMatching({ queue: 'sdk-rates-b' })).toEqual({ deleted: 0 });
  });
});
