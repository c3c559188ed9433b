import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { Consumer, MiniQueue } from '../../src/index.js';
import type { ConsumerBroker } from '../../src/consumer/types.js';
import { brokerForFile, until, type SdkBroker } from '../helpers/broker.js';

let env: SdkBroker;
brokerForFile((started) => (env = started));

/** The HTTP status of a /ws/consume handshake (101 when it opens). */
function handshakeStatus(url: string, key: string, queue: string): Promise<number> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/ws/consume?queue=${queue}`, { headers: { authorization: `Bearer ${key}` } });
    socket.on('open', () => {
      socket.close();
      resolve(101);
    });
    socket.on('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      socket.terminate();
    });
    socket.on('error', () => resolve(0));
  });
}

describe('push mode', () => {
  it('over HTTP, claims as soon as /ws/consume announces a message, without long polling', async () => {
    await env.admin.topics.create('pushed');
    await env.admin.queues.create('pushed', 'pushed');
    const producer = await env.client('pushed-producer', ['publish:pushed']);
    const key = (await env.admin.clients.create('pushed-consumer', ['consume:pushed'])).api_key;
    expect(await handshakeStatus(env.broker.url, key, 'pushed')).toBe(101);

    const waits: number[] = [];
    const consumerClient = new MiniQueue({
      url: env.broker.url,
      apiKey: key,
      transport: 'http', // push mode is how an HTTP consumer learns of messages early
      fetch: (input, init) => {
        if (String(input).endsWith('/receive')) waits.push(JSON.parse(String(init?.body)).wait_seconds);
        return fetch(input, init);
      },
    });
    const handled: string[] = [];
    const errors: unknown[] = [];
    // With a 20 s fallback, only the notification can explain a claim within a few seconds.
    const consumer = consumerClient.consumer('pushed', (message) => void handled.push(message.payload), { push: true, waitSeconds: 20 });
    consumer.on('error', (error) => errors.push(error));
    consumer.start();
    await until(() => waits.length > 0, 10_000, 'first claim');

    const started = Date.now();
    await producer.publish('pushed', 'announced');
    await until(() => handled.length === 1, 10_000, 'pushed delivery');
    expect(Date.now() - started).toBeLessThan(5000);
    await consumer.stop();

    expect(handled).toEqual(['announced']);
    expect(waits.every((wait) => wait === 0)).toBe(true);
    expect(errors).toEqual([]);
  });

  it('over the stream, a published message is pushed to the subscribed consumer at once, with no claim request', async () => {
    await env.admin.topics.create('streamed');
    await env.admin.queues.create('streamed', 'streamed');
    const producer = await env.client('streamed-producer', ['publish:streamed']);
    const key = (await env.admin.clients.create('streamed-consumer', ['consume:streamed'])).api_key;
    const requests: string[] = [];
    const consumerClient = new MiniQueue({
      url: env.broker.url,
      apiKey: key,
      fetch: (input, init) => (requests.push(String(input)), fetch(input, init)),
    });
    const handled: string[] = [];
    const errors: unknown[] = [];
    const consumer = consumerClient.consumer('streamed', (message) => void handled.push(message.payload), { push: true, waitSeconds: 20 });
    consumer.on('error', (error) => errors.push(error));
    consumer.start();
    await producer.publish('streamed', 'warm-up'); // the subscription is up once this arrives
    await until(() => handled.length === 1, 10_000, 'the first delivery');
    const started = Date.now();
    await producer.publish('streamed', 'pushed');
    await until(() => handled.length === 2, 10_000, 'pushed delivery');
    expect(Date.now() - started).toBeLessThan(5000);
    await consumer.stop();
    consumerClient.close();
    producer.close();
    expect(handled).toEqual(['warm-up', 'pushed']);
    expect(requests).toEqual([]); // no receive, no ack, no /ws/consume ticket: all of it went over the stream
    expect(errors).toEqual([]);
  });

  it('falls back to long polling while the socket is refused', async () => {
    await env.admin.topics.create('refused');
    await env.admin.queues.create('refused', 'refused');
    const producer = await env.client('refused-producer', ['publish:refused']);
    const client = await env.client('refused-consumer', ['consume:refused']);
    // The same queue operations, but the WebSocket points at a path that refuses every handshake.
    const broker: ConsumerBroker = {
      receive: (queue, options) => client.receive(queue, options),
      ack: (id) => client.ack(id),
      nack: (id, options) => client.nack(id, options),
      extend: (id, seconds) => client.extend(id, seconds),
      push: { baseUrl: `${env.broker.url}/nowhere`, token: async () => 'unused', ticket: async () => 'unused' },
    };
    const phases: string[] = [];
    const handled: string[] = [];
    const consumer = new Consumer(broker, 'refused', (message) => void handled.push(message.payload), { push: true, waitSeconds: 2 });
    consumer.on('error', (_error, context) => phases.push(context.phase));
    consumer.start();
    await producer.publish('refused', 'polled');
    await until(() => handled.length === 1, 15_000, 'polled delivery');
    await consumer.stop();
    expect(handled).toEqual(['polled']);
    expect(phases).toContain('push');
  });
});
