import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';

let mq: TestBroker;

beforeAll(async () => {
  mq = await startTestBroker();
  expect((await mq.post('/api/v1/topics', { name: 'events' }, mq.adminKey)).status).toBe(201);
});
afterAll(() => mq.stop());

const createQueue = (name: string, filter: unknown) => mq.post('/api/v1/queues', { name, topic_name: 'events', filter }, mq.adminKey);
const publish = async (headers: Record<string, string>) => {
  const response = await mq.post('/api/v1/topics/events/messages', { payload: 'x', headers }, mq.adminKey);
  expect(response.status).toBe(201);
  return response.body as { message_ids: string[]; queues: string[] };
};
const stored = async (id: string) => (await mq.pool.query('SELECT queue_name FROM message WHERE id = $1', [id])).rows;

describe('filtered subscriptions', () => {
  const filters: Record<string, unknown> = {
    'f-eu': { header: 'region', equals: 'eu' },
    'f-americas': { header: 'region', one_of: ['us', 'ca', 'br'] },
    'f-orders': { header: 'type', prefix: 'order.' },
    'f-traced': { header: 'trace', exists: true },
    'f-untraced': { header: 'trace', exists: false },
    'f-not-eu': { not: { header: 'region', equals: 'eu' } },
    'f-eu-orders': {
      and: [
        { header: 'region', equals: 'eu' },
        { header: 'type', prefix: 'order.' },
      ],
    },
    'f-nested': {
      or: [{ and: [{ header: 'region', equals: 'us' }, { not: { header: 'test', exists: true } }] }, { header: 'priority', one_of: ['high'] }],
    },
  };

  it('are kept with the queue and shown by it; a queue without one shows none', async () => {
    for (const [name, filter] of Object.entries(filters)) expect((await createQueue(name, filter)).status).toBe(201);
    expect((await mq.post('/api/v1/queues', { name: 'f-all', topic_name: 'events' }, mq.adminKey)).body).not.toHaveProperty('filter');
    expect((await mq.get('/api/v1/queues/f-nested', mq.adminKey)).body.filter).toEqual(filters['f-nested']);
  });

  it('a publish goes only to the queues whose filter matches, and says which', async () => {
    const cases: [Record<string, string>, string[]][] = [
      [{ region: 'eu', type: 'order.placed' }, ['f-all', 'f-eu', 'f-eu-orders', 'f-orders', 'f-untraced']],
      [{ region: 'us', trace: 'abc' }, ['f-all', 'f-americas', 'f-nested', 'f-not-eu', 'f-traced']],
      [{ region: 'us', test: '1' }, ['f-all', 'f-americas', 'f-not-eu', 'f-untraced']],
      [{ priority: 'high', type: 'orders' }, ['f-all', 'f-nested', 'f-not-eu', 'f-untraced']],
      [{}, ['f-all', 'f-not-eu', 'f-untraced']],
    ];
    for (const [headers, expected] of cases) {
      const result = await publish(headers);
      expect(result.queues, JSON.stringify(headers)).toEqual(expected);
      expect(result.message_ids).toHaveLength(expected.length);
      for (const [i, id] of result.message_ids.entries()) expect(await stored(id)).toEqual([{ queue_name: expected[i] }]);
    }
  });

  it('a batch is filtered item by item', async () => {
    const response = await mq.post(
      '/api/v1/topics/events/messages/batch',
      {
        messages: [
          { payload: 'a', headers: { region: 'eu' } },
          { payload: 'b', headers: { region: 'ca' } },
        ],
      },
      mq.adminKey,
    );
    expect(response.body.results.map((r: { queues: string[] }) => r.queues)).toEqual([
      ['f-all', 'f-eu', 'f-untraced'],
      ['f-all', 'f-americas', 'f-not-eu', 'f-untraced'],
    ]);
  });

  it('can be changed and removed; publishes follow at once', async () => {
    expect((await mq.patch('/api/v1/queues/f-eu', { filter: { header: 'region', equals: 'ca' } }, mq.adminKey)).status).toBe(200);
    expect((await publish({ region: 'ca' })).queues).toContain('f-eu');
    const removed = await mq.patch('/api/v1/queues/f-eu', { filter: null }, mq.adminKey);
    expect(removed.body).not.toHaveProperty('filter');
    expect((await publish({ region: 'nowhere' })).queues).toContain('f-eu');
  });

  it.each([
    [{ header: 'region', matches: 'eu' }, 'filter must be a condition ("header" and exactly one of equals, one_of, prefix, exists)'],
    [{ header: 'region', equals: 'eu', prefix: 'e' }, 'filter must be a condition'],
    [{ and: [] }, 'filter.and must be a list of 1 to 10 filters'],
    [{ or: [{ and: [{ or: [{ header: 'a', exists: true }] }] }] }, 'filter.or[0].and[0] nests "and"/"or" deeper than 2 levels'],
    [{ not: { and: [{ header: 'a', exists: true }] } }, 'filter.not must be a condition'],
    [{ header: 'a', one_of: [] }, 'filter.one_of must be a list of 1 to 20 strings'],
    [{ header: 'a', one_of: ['x', 7] }, 'filter.one_of[1] must be a string'],
    [{ header: 'a', exists: 'yes' }, 'filter.exists must be true or false'],
    [{ header: 'a', equals: 'x'.repeat(257) }, 'filter.equals must be at most 256 characters'],
    [{ and: Array.from({ length: 11 }, () => ({ header: 'a', exists: true })) }, 'filter.and must be a list of 1 to 10 filters'],
    ['region=eu', 'filter must be an object'],
  ])('a bad filter is refused with 400 naming the problem: %j', async (filter, problem) => {
    for (const response of [await createQueue('f-bad', filter), await mq.patch('/api/v1/queues/f-all', { filter }, mq.adminKey)]) {
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('validation_failed');
      expect(response.body.errors[0].field).toBe('filter');
      expect(response.body.errors[0].message).toContain(problem);
    }
    expect((await mq.get('/api/v1/queues/f-bad', mq.adminKey)).status).toBe(404);
    expect((await mq.get('/api/v1/queues/f-all', mq.adminKey)).body).not.toHaveProperty('filter');
  });
});
