/**
 * A consumer whose claims are refused for good (401, 403, an unknown queue) stops with one typed
 * `fatal` event instead of retrying forever; `retryPermanentErrors` keeps it retrying. Over both
 * transports: the stream (a refused subscription, or a refused handshake and then HTTP) and HTTP.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConsumerFatalError, MiniQueue, type Consumer, type FatalReason, type MiniQueueOptions } from '../../src/index.js';
import { brokerForFile, sleep, until, type SdkBroker } from '../helpers/broker.js';

let env: SdkBroker;
brokerForFile((started) => (env = started));

const TRANSPORTS = ['stream', 'http'] as const;
const running: Array<{ consumer: Consumer; client: MiniQueue }> = [];

afterEach(async () => {
  for (const { consumer, client } of running.splice(0)) {
    await consumer.stop();
    client.close();
  }
  vi.restoreAllMocks();
});

type Case = {
  reason: FatalReason;
  status: number;
  client(transport: MiniQueueOptions['transport'], name: string): Promise<{ client: MiniQueue; queue: string }>;
};

async function queueNamed(name: string): Promise<string> {
  await env.admin.topics.create(name);
  await env.admin.queues.create(name, name);
  return name;
}

const CASES: Case[] = [
  {
    reason: 'unauthorized',
    status: 401,
    client: async (transport, name) => ({
      client: new MiniQueue({ url: env.broker.url, apiKey: `mq_${'x'.repeat(43)}`, transport, logger: { warn: () => undefined } }),
      queue: await queueNamed(name),
    }),
  },
  {
    reason: 'forbidden',
    status: 403,
    client: async (transport, name) => ({ client: await env.client(`${name}-c`, ['publish:*'], { transport }), queue: await queueNamed(name) }),
  },
  {
    reason: 'queue_not_found',
    status: 404,
    client: async (transport, name) => ({ client: await env.client(`${name}-c`, ['consume:*'], { transport }), queue: `${name}-absent` }),
  },
];

function consume(client: MiniQueue, queue: string, retryPermanentErrors = false): Consumer {
  const consumer = client.consumer(queue, () => undefined, { waitSeconds: 1, retryPermanentErrors });
  running.push({ consumer, client });
  return consumer;
}

describe.each(TRANSPORTS)('a consumer over %s', (transport) => {
  for (const { reason, status, client: make } of CASES) {
    it(`stops with one fatal event on ${status} (${reason}), and emits no claim error for it`, async () => {
      const { client, queue } = await make(transport, `fatal-${transport}-${reason}`.replaceAll('_', '-'));
      const fatal: ConsumerFatalError[] = [];
      const errors: unknown[] = [];
      const consumer = consume(client, queue)
        .on('fatal', (error) => fatal.push(error))
        .on('error', (error) => errors.push(error));
      consumer.start();
      await until(() => fatal.length > 0, 10_000, 'the fatal event');
      await until(() => !consumer.isRunning, 5000, 'the consumer to stop');
      await sleep(1500); // a retry would come within the first backoff (about 0.5 s)
      expect(fatal).toHaveLength(1);
      expect(fatal[0]).toBeInstanceOf(ConsumerFatalError);
      expect(fatal[0]).toMatchObject({ queue, reason, status });
      expect(fatal[0]!.message).not.toContain('\n');
      expect(errors).toEqual([]);
    });
  }

  it('keeps retrying a refused claim with retryPermanentErrors, reporting each as a claim error', async () => {
    const { client, queue } = await CASES[2]!.client(transport, `fatal-${transport}-retrying`);
    const phases: string[] = [];
    const fatal: unknown[] = [];
    const consumer = consume(client, queue, true)
      .on('fatal', (error) => fatal.push(error))
      .on('error', (_error, context) => phases.push(context.phase));
    consumer.start();
    await until(() => phases.length >= 2, 10_000, 'two refused claims');
    expect(consumer.isRunning).toBe(true);
    expect(fatal).toEqual([]);
    expect(new Set(phases)).toEqual(new Set(['claim']));
  });

  it('without listeners, says it in one line, once (and nothing about HTTP: a refused key is no reason to leave the stream)', async () => {
    const queue = await queueNamed(`fatal-${transport}-quiet`);
    const client = new MiniQueue({ url: env.broker.url, apiKey: `mq_${'y'.repeat(43)}`, transport });
    const printed: unknown[][] = [];
    const warned: unknown[][] = [];
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void printed.push(args));
    vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => void warned.push(args));
    const consumer = consume(client, queue);
    consumer.start();
    await until(() => !consumer.isRunning, 10_000, 'the consumer to stop');
    await sleep(1500);
    expect(printed).toHaveLength(1);
    expect(printed[0]).toHaveLength(1);
    expect(String(printed[0]![0])).toMatch(
      new RegExp(`^MiniQueue consumer of ${queue} stopped: 401 \\w+ \\(.*\\); the API key is missing, wrong, expired or revoked`),
    );
    expect(warned.map(([line]) => String(line))).toEqual([]);
  });
});
