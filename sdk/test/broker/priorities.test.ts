import { describe, expect, it } from 'vitest';
import { BadRequestError, type MiniQueue } from '../../src/index.js';
import { brokerForFile } from '../helpers/broker.js';

let admin: MiniQueue;
brokerForFile((started) => {
  admin = started.admin;
});

describe('priorities through the SDK', () => {
  it('creates a queue with maxPriority; publishes over the stream and in batches with a priority; the consumer gets the highest first', async () => {
    await admin.topics.create('sdk.jobs');
    const queue = await admin.queues.create('sdk-jobs', 'sdk.jobs', { maxPriority: 9 });
    expect(queue.max_priority).toBe(9);

    await admin.publish('sdk.jobs', 'low', { priority: 1 });
    await admin.publish('sdk.jobs', 'high', { priority: 9 });
    await admin.publishBatch('sdk.jobs', [{ payload: 'mid', priority: 5 }, { payload: 'none' }]);

    const seen: string[] = [];
    const consumer = admin.consumer('sdk-jobs', (message) => void seen.push(`${message.payload}:${message.priority}`), { concurrency: 1, prefetch: 10 });
    consumer.start();
    const deadline = Date.now() + 10_000;
    while (seen.length < 4 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    await consumer.stop();
    expect(seen).toEqual(['high:9', 'mid:5', 'low:1', 'none:0']);
  });

  it('refuses a priority out of range over the stream, naming it', async () => {
    const refused = await admin.publish('sdk.jobs', 'x', { priority: 10 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(BadRequestError);
    expect((refused as BadRequestError).message).toContain('priority');
  });
});
