import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { publishMessage, receiveMessages, topology } from '../helpers/fixtures.js';

/** Priorities (migration 0021): a queue with a max_priority delivers highest first, oldest first within one. */
let mq: TestBroker;

beforeAll(async () => {
  mq = await startTestBroker({ env: { MINIQUEUE_RATE_LIMIT_ENABLED: 'false' } });
});
afterAll(() => mq?.stop());

interface Delivered {
  message_id: string;
  payload: string;
  priority: number | null;
}

const publish = (topic: string, body: Record<string, unknown>) => publishMessage(mq, topic, body);
const receive = (queue: string, max = 100) => receiveMessages<Delivered>(mq, queue, max);
const consumeOne = async (queue: string): Promise<Delivered | null> => {
  const response = await mq.post(`/api/v1/queues/${queue}/consume`, undefined, mq.adminKey);
  return response.status === 200 ? response.body : null;
};
const ack = (id: string) => mq.post(`/api/v1/messages/${id}/ack`, undefined, mq.adminKey);

describe('a queue with max_priority', () => {
  it('delivers the highest priority first and the oldest first within one; a queue without ignores priorities', async () => {
    await topology(mq, 'prio', [{ name: 'prio-ranked', max_priority: 9 }, { name: 'prio-plain' }]);
    const sent: [string, number | undefined][] = [
      ['a', 0],
      ['b', 5],
      ['c', 9],
      ['d', 5],
      ['e', undefined],
      ['f', 9],
      ['g', 1],
    ];
    for (const [payload, priority] of sent) await publish('prio', { payload, ...(priority === undefined ? {} : { priority }) });

    const ranked = await receive('prio-ranked');
    expect(ranked.map((m) => m.payload)).toEqual(['c', 'f', 'b', 'd', 'g', 'a', 'e']);
    expect(ranked.map((m) => m.priority)).toEqual([9, 9, 5, 5, 1, 0, 0]);

    const plain = await receive('prio-plain');
    expect(plain.map((m) => m.payload)).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
    expect(plain.every((m) => m.priority === null)).toBe(true);
  });

  it('one claim at a time takes the same order, and a publish of higher priority overtakes what waits', async () => {
    await topology(mq, 'prio-one', [{ name: 'prio-one-q', max_priority: 9 }]);
    await publish('prio-one', { payload: 'low-1', priority: 1 });
    await publish('prio-one', { payload: 'low-2', priority: 1 });
    expect((await consumeOne('prio-one-q'))?.payload).toBe('low-1');
    await publish('prio-one', { payload: 'urgent', priority: 8 });
    expect((await consumeOne('prio-one-q'))?.payload).toBe('urgent');
    expect((await consumeOne('prio-one-q'))?.payload).toBe('low-2');
    expect(await consumeOne('prio-one-q')).toBeNull();
  });

  it('counts a priority above the maximum as the maximum', async () => {
    await topology(mq, 'prio-capped', [{ name: 'prio-capped-q', max_priority: 3 }]);
    await publish('prio-capped', { payload: 'three', priority: 3 });
    await publish('prio-capped', { payload: 'nine', priority: 9 });
    await publish('prio-capped', { payload: 'two', priority: 2 });
    const got = await receive('prio-capped-q');
    expect(got.map((m) => [m.payload, m.priority])).toEqual([
      ['three', 3],
      ['nine', 3],
      ['two', 2],
    ]);
  });

  it('keeps each ordering key in publish order whatever the priorities', async () => {
    await topology(mq, 'prio-keyed', [{ name: 'prio-keyed-q', max_priority: 9 }]);
    await publish('prio-keyed', { payload: 'k-first', priority: 0, ordering_key: 'k' });
    await publish('prio-keyed', { payload: 'k-second', priority: 9, ordering_key: 'k' });
    await publish('prio-keyed', { payload: 'free', priority: 5 });

    // k-second waits behind k-first (BLOCKED); of what is claimable, free outranks k-first.
    const first = await receive('prio-keyed-q');
    expect(first.map((m) => m.payload)).toEqual(['free', 'k-first']);
    expect(await receive('prio-keyed-q')).toEqual([]);
    await ack(first[1].message_id);
    const next = await receive('prio-keyed-q');
    expect(next.map((m) => [m.payload, m.priority])).toEqual([['k-second', 9]]);
  });

  it('batch publishes and replayed dead letters keep their priority', async () => {
    await topology(mq, 'prio-batch', [{ name: 'prio-batch-q', max_priority: 5 }]);
    const batch = await mq.post(
      '/api/v1/topics/prio-batch/messages/batch',
      { messages: [{ payload: 'x', priority: 1 }, { payload: 'y', priority: 4 }, { payload: 'z' }] },
      mq.adminKey,
    );
    expect(batch.status, JSON.stringify(batch.body)).toBe(201);
    const got = await receive('prio-batch-q');
    expect(got.map((m) => m.payload)).toEqual(['y', 'x', 'z']);

    const y = got[0].message_id;
    expect((await mq.post(`/api/v1/messages/${y}/nack`, { requeue: false }, mq.adminKey)).status).toBe(200);
    for (const m of got.slice(1)) await ack(m.message_id);
    expect((await mq.post(`/api/v1/dashboard/dlq/${y}/replay`, undefined, mq.adminKey)).status).toBe(200);
    await publish('prio-batch', { payload: 'w', priority: 2 });
    const again = await receive('prio-batch-q');
    expect(again.map((m) => [m.payload, m.priority])).toEqual([
      ['y', 4],
      ['w', 2],
    ]);
  });
});

describe('priority settings', () => {
  it('refuses priorities and maxima out of range, naming the field, and storing nothing', async () => {
    await topology(mq, 'prio-bad', [{ name: 'prio-bad-q', max_priority: 9 }]);
    for (const priority of [-1, 10, 1.5, '3']) {
      const response = await mq.post('/api/v1/topics/prio-bad/messages', { payload: 'p', priority }, mq.adminKey);
      expect(response.status).toBe(400);
      expect(JSON.stringify(response.body.errors)).toContain('priority');
    }
    for (const max_priority of [0, 10, 'high']) {
      const response = await mq.post('/api/v1/queues', { name: 'prio-bad-2', topic_name: 'prio-bad', max_priority }, mq.adminKey);
      expect(response.status).toBe(400);
      expect(JSON.stringify(response.body.errors)).toContain('max_priority');
    }
    const { rows } = await mq.pool.query(`SELECT count(*)::int AS n FROM message WHERE queue_name = 'prio-bad-q'`);
    expect(rows[0].n).toBe(0);
  });

  it('shows max_priority on the queue and refuses to change it later', async () => {
    await topology(mq, 'prio-fixed', [{ name: 'prio-fixed-q', max_priority: 4 }, { name: 'prio-fixed-plain' }]);
    expect((await mq.get('/api/v1/queues/prio-fixed-q', mq.adminKey)).body.max_priority).toBe(4);
    expect((await mq.get('/api/v1/queues/prio-fixed-plain', mq.adminKey)).body.max_priority).toBeNull();
    for (const [queue, max_priority] of [
      ['prio-fixed-q', 9],
      ['prio-fixed-q', null],
      ['prio-fixed-plain', 3],
    ] as const) {
      const response = await mq.patch(`/api/v1/queues/${queue}`, { max_priority }, mq.adminKey);
      expect(response.status).toBe(400);
      expect(response.body.errors).toEqual([
        expect.objectContaining({ field: 'max_priority', message: expect.stringContaining('fixed when the queue is created') }),
      ]);
    }
    expect((await mq.get('/api/v1/queues/prio-fixed-q', mq.adminKey)).body.max_priority).toBe(4);
  });
});
