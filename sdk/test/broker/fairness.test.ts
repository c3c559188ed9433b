import { describe, expect, it } from 'vitest';
import { BadRequestError, type MiniQueue } from '../../src/index.js';
import { brokerForFile } from '../helpers/broker.js';

let admin: MiniQueue;
brokerForFile((started) => {
  admin = started.admin;
});

describe('fair sharing through the SDK', () => {
  it('creates a fair queue with maxInFlightPerKey; a noisy group key does not hold back a quiet one', async () => {
    await admin.topics.create('sdk.tenants');
    const queue = await admin.queues.create('sdk-tenants', 'sdk.tenants', { fairness: 'by_key', maxInFlightPerKey: 1 });
    expect(queue).toMatchObject({ fairness: 'by_key', max_in_flight_per_key: 1 });

    // Over the stream and in a batch: three of 'noisy' first, then one of 'quiet'.
    await admin.publish('sdk.tenants', 'noisy-1', { groupKey: 'noisy' });
    await admin.publishBatch('sdk.tenants', [
      { payload: 'noisy-2', groupKey: 'noisy' },
      { payload: 'noisy-3', groupKey: 'noisy' },
    ]);
    await admin.publish('sdk.tenants', 'quiet-1', { groupKey: 'quiet' });

    const first = await admin.receive('sdk-tenants', { maxMessages: 2 });
    expect(first.map((message) => `${message.payload}:${message.group_key}`).sort()).toEqual(['noisy-1:noisy', 'quiet-1:quiet']);
    // Each key is at its limit of one in flight: nothing more until one is acked.
    expect(await admin.receive('sdk-tenants', { maxMessages: 2 })).toEqual([]);

    await admin.ack(first.find((message) => message.group_key === 'noisy')!.message_id);
    const next = await admin.receive('sdk-tenants', { maxMessages: 2 });
    expect(next.map((message) => message.payload)).toEqual(['noisy-2']);

    const raised = await admin.queues.update('sdk-tenants', { maxInFlightPerKey: 2 });
    expect(raised.max_in_flight_per_key).toBe(2);
    const after = await admin.receive('sdk-tenants', { maxMessages: 2 });
    expect(after.map((message) => message.payload)).toEqual(['noisy-3']);
    const lifted = await admin.queues.update('sdk-tenants', { maxInFlightPerKey: null });
    expect(lifted.max_in_flight_per_key).toBeNull();
  });

  it("without a group key a message's group is its ordering key, else the empty key; other queues say null", async () => {
    await admin.topics.create('sdk.groups');
    await admin.queues.create('sdk-groups-fair', 'sdk.groups', { fairness: 'by_key' });
    const plain = await admin.queues.create('sdk-groups-plain', 'sdk.groups');
    expect(plain).toMatchObject({ fairness: 'none', max_in_flight_per_key: null });

    await admin.publish('sdk.groups', 'keyed', { orderingKey: 'order-7' });
    await admin.publish('sdk.groups', 'bare');
    const fair = await admin.receive('sdk-groups-fair', { maxMessages: 10 });
    expect(Object.fromEntries(fair.map((message) => [message.payload, message.group_key]))).toEqual({ keyed: 'order-7', bare: '' });
    const others = await admin.receive('sdk-groups-plain', { maxMessages: 10 });
    expect(others.map((message) => message.group_key ?? null)).toEqual([null, null]);
  });

  it('refuses fairness with maxPriority, and a per-key limit without fairness', async () => {
    const withPriority = await admin.queues.create('sdk-bad-1', 'sdk.tenants', { fairness: 'by_key', maxPriority: 5 }).catch((error: unknown) => error);
    expect(withPriority).toBeInstanceOf(BadRequestError);
    const withoutFairness = await admin.queues.create('sdk-bad-2', 'sdk.tenants', { maxInFlightPerKey: 3 }).catch((error: unknown) => error);
    expect(withoutFairness).toBeInstanceOf(BadRequestError);
    expect((withoutFairness as BadRequestError).message).toContain('max_in_flight_per_key');
  });
});
