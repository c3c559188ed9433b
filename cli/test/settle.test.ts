import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, startBroker, type TestBroker } from './helpers/broker.js';
import { json } from './helpers/cli.js';

let broker: TestBroker;
let admin: ReturnType<typeof as>;

beforeAll(async () => {
  broker = await startBroker();
  admin = as(broker);
});
afterAll(async () => {
  await broker?.stop();
});

let counter = 0;
async function topicWithQueue(...options: string[]): Promise<{ topic: string; queue: string }> {
  counter += 1;
  const [topic, queue] = [`st${counter}`, `sq${counter}`];
  await admin('topics:create', topic);
  await admin('queues:create', queue, '--topic', topic, ...options);
  return { topic, queue };
}

/** Publishes `payloads` and claims them without acking; returns their ids in order. */
async function claimed(...payloads: string[]): Promise<{ queue: string; ids: string[] }> {
  const { topic, queue } = await topicWithQueue('--max-retries', '3');
  for (const payload of payloads) await admin('publish', topic, payload);
  const result = json(await admin('consume', queue, '--no-ack', '--count', String(payloads.length), '--json'));
  return { queue, ids: result.messages.map((m: { message_id: string }) => m.message_id) };
}

async function statusOf(queue: string, id: string): Promise<Record<string, any>> {
  const page = json(await admin('messages', 'list', queue, '--json', '--limit', '500'));
  return page.items.find((m: { message_id: string }) => m.message_id === id);
}

describe('ack', () => {
  it('acks one claimed message; --json is the broker answer', async () => {
    const { queue, ids } = await claimed('a');
    const result = json(await admin('ack', ids[0], '--json'));
    expect(result).toEqual({ message_id: ids[0], status: 'ACKED' });
    expect((await statusOf(queue, ids[0])).status).toBe('ACKED');
  });

  it('acks several at once and names those it could not, with exit code 5', async () => {
    const { ids } = await claimed('a', 'b');
    const stranger = '00000000-0000-4000-8000-000000000000';
    const result = await admin('ack', ids[0], ids[1], stranger, '--json');
    expect(result.exitCode).toBe(5);
    const body = json(result);
    expect(body.acked.sort()).toEqual([...ids].sort());
    expect(body.failed).toEqual([expect.objectContaining({ message_id: stranger, status: 404 })]);
  });

  it('a message held by someone else is a conflict: exit 5 with a hint', async () => {
    const { ids } = await claimed('held');
    const other = as(broker, await broker.clientKey(`other-${counter}`, ['consume:*']));
    const result = await other('ack', ids[0]);
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toMatch(/^Error: Message .* held by another consumer.*\nHint: Only the consumer holding a message/);
  });

  it('--instance acts as the replica that claimed it', async () => {
    const { topic, queue } = await topicWithQueue();
    await admin('publish', topic, 'replica');
    const claim = await broker.post(`/api/v1/queues/${queue}/consume`, undefined, broker.adminKey, { 'miniqueue-instance': 'r-2' });
    const id = claim.body.message_id;
    expect((await admin('ack', id)).exitCode).toBe(5);
    expect((await admin('ack', id, '--instance', 'r-2')).exitCode).toBe(0);
  });
});

describe('nack', () => {
  it('requeues by default, with a retry counted', async () => {
    const { queue, ids } = await claimed('again');
    const result = json(await admin('nack', ids[0], '--json'));
    expect(result).toEqual({ message_id: ids[0], status: 'PENDING' });
    expect(await statusOf(queue, ids[0])).toMatchObject({ status: 'PENDING', retry_count: 1 });
  });

  it('--requeue=false dead-letters it', async () => {
    const { ids } = await claimed('poison');
    const result = await admin('nack', ids[0], '--requeue=false');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(`Rejected ${ids[0]}: now DEAD, in the dead-letter queue.\n`);
    const dead = json(await admin('dlq:list', '--json')).items.map((m: { message_id: string }) => m.message_id);
    expect(dead).toContain(ids[0]);
  });

  it('--delay keeps the requeued message out of reach, and says when it can be claimed again', async () => {
    const { queue, ids } = await claimed('later');
    const result = await admin('nack', ids[0], '--delay', '120');
    const message = await statusOf(queue, ids[0]);
    expect(Date.parse(message.available_at) - Date.now()).toBeGreaterThan(100_000);
    const said = /^Rejected \S+: PENDING again, claimable in 2m0s \(at about (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)Z\)\.\n$/.exec(result.stdout);
    expect(said, result.stdout).not.toBeNull();
    // To the second, as the CLI prints times: within a couple of seconds of the broker's own.
    expect(Math.abs(Date.parse(`${said![1]!.replace(' ', 'T')}Z`) - Date.parse(message.available_at))).toBeLessThan(3_000);
  });
});

describe('extend', () => {
  it('moves the end of the lease to --seconds from now', async () => {
    const { ids } = await claimed('slow');
    const before = Date.now();
    const result = json(await admin('extend', ids[0], '--seconds', '3600', '--json'));
    expect(result.message_id).toBe(ids[0]);
    expect(Date.parse(result.lease_expires_at) - before).toBeGreaterThan(3_500_000);
  });

  it('needs --seconds', async () => {
    expect((await admin('extend', '00000000-0000-4000-8000-000000000000')).exitCode).toBe(2);
  });
});

describe('queues get / update', () => {
  it('shows one queue, also with the space form and --json', async () => {
    const { topic, queue } = await topicWithQueue('--ack-timeout', '45');
    const result = json(await admin('queues', 'get', queue, '--json'));
    expect(result).toMatchObject({ name: queue, topic_name: topic, ack_timeout_seconds: 45, acked_retention_hours: null });
    const text = await admin('queues:get', queue);
    expect(text.stdout).toMatch(/ack timeout\s+45s/);
  });

  it('changes only the settings given', async () => {
    const { queue } = await topicWithQueue('--ack-timeout', '45', '--max-retries', '2');
    const result = json(await admin('queues', 'update', queue, '--acked-retention', '72', '--max-retries', '7', '--json'));
    expect(result).toMatchObject({ ack_timeout_seconds: 45, max_retries: 7, acked_retention_hours: 72 });
    const back = json(await admin('queues:update', queue, '--acked-retention', 'default', '--json'));
    expect(back.acked_retention_hours).toBeNull();
    expect(json(await admin('queues:get', queue, '--json')).max_retries).toBe(7);
  });

  it('refuses an update with nothing to change, and a bad retention, before any request', async () => {
    const { queue } = await topicWithQueue();
    expect((await admin('queues:update', queue)).exitCode).toBe(2);
    const bad = await admin('queues:update', queue, '--acked-retention', 'forever');
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--acked-retention must be 0-8760 hours or "default"');
  });

  it('an unknown queue is exit 4', async () => {
    expect((await admin('queues:get', 'nope')).exitCode).toBe(4);
  });
});
