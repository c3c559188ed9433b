import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expirySweeper } from '../../src/jobs/expirySweeper.js';
import { leaseSweeper } from '../../src/jobs/leaseSweeper.js';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { expireAllLeases, topology } from '../helpers/fixtures.js';

/** The bound on the routed copies of one message, across every hop (messageDeath.ts). */
const MAX_DEAD_LETTER_COPIES = 100;

/** Routable dead letters: a queue's dead letters are published to its dead_letter_topic, with the death headers, in the death's transaction. */
let mq: TestBroker;

beforeAll(async () => {
  mq = await startTestBroker({ env: { MINIQUEUE_RATE_LIMIT_ENABLED: 'false' } });
});
afterAll(() => mq?.stop());

const topic = (name: string, queues: ({ name: string } & Record<string, unknown>)[]) => topology(mq, name, queues);
const publish = async (name: string, body: Record<string, unknown>) => {
  const response = await mq.post(`/api/v1/topics/${name}/messages`, body, mq.adminKey);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.message_ids as string[];
};
/** The copy's id of each queue a publish went to. */
const publishTo = async (name: string, body: Record<string, unknown>) => {
  const response = await mq.post(`/api/v1/topics/${name}/messages`, body, mq.adminKey);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return Object.fromEntries((response.body.queues as string[]).map((queue, i) => [queue, response.body.message_ids[i] as string]));
};
const receive = async (queue: string, max = 10) =>
  (await mq.post(`/api/v1/queues/${queue}/receive`, { max_messages: max }, mq.adminKey)).body.messages as {
    message_id: string;
    payload: string;
    headers: Record<string, string>;
  }[];
const nackDead = (id: string) => mq.post(`/api/v1/messages/${id}/nack`, { requeue: false, reason: 'no' }, mq.adminKey);
const live = async (queue: string) =>
  (
    await mq.pool.query<{ payload: string; headers: Record<string, string> }>('SELECT payload, headers FROM message WHERE queue_name = $1 ORDER BY seq', [
      queue,
    ])
  ).rows;
const deadIn = async (queue: string) =>
  (await mq.pool.query<{ id: string; dead_reason: string }>('SELECT id, dead_reason FROM message_dead WHERE queue_name = $1 ORDER BY seq', [queue])).rows;
/** Each queue's counters beside the counts of its messages: equal when exact. */
const counters = async (queues: string[]) =>
  (
    await mq.pool.query<{ queue: string; counted: string; actual: string }>(
      `SELECT q AS queue,
              (SELECT row(sum(pending), sum(unacked), sum(dead), sum(bytes))::text FROM queue_counter WHERE queue_name = q) AS counted,
              row((SELECT count(*) FROM message WHERE queue_name = q AND status <> 'UNACKED'),
                  (SELECT count(*) FROM message WHERE queue_name = q AND status = 'UNACKED'),
                  (SELECT count(*) FROM message_dead WHERE queue_name = q),
                  (SELECT coalesce(sum(octet_length(payload)), 0) FROM message WHERE queue_name = q))::text AS actual
         FROM unnest($1::text[]) AS q`,
      [queues],
    )
  ).rows;
const expectExactCounters = async (queues: string[]) => {
  for (const row of await counters(queues)) expect(row.counted, row.queue).toBe(row.actual);
};

describe('dead_letter_topic settings', () => {
  beforeAll(async () => {
    await topic('d-settings', [{ name: 'ds-plain' }]);
    await topic('d-settings.dead', []);
  });

  it('are stored, shown, changed and removed; a queue without them shows null and false', async () => {
    expect((await mq.get('/api/v1/queues/ds-plain', mq.adminKey)).body).toMatchObject({ dead_letter_topic: null, dead_letter_keep: false });
    const routed = await mq.post(
      '/api/v1/queues',
      { name: 'ds-routed', topic_name: 'd-settings', dead_letter_topic: 'd-settings.dead', dead_letter_keep: true },
      mq.adminKey,
    );
    expect(routed.status).toBe(201);
    expect(routed.body).toMatchObject({ dead_letter_topic: 'd-settings.dead', dead_letter_keep: true });
    expect((await mq.patch('/api/v1/queues/ds-routed', { dead_letter_topic: null }, mq.adminKey)).body).toMatchObject({ dead_letter_topic: null });
    expect((await mq.patch('/api/v1/queues/ds-plain', { dead_letter_topic: 'd-settings.dead' }, mq.adminKey)).body).toMatchObject({
      dead_letter_topic: 'd-settings.dead',
    });
  });

  it("refuse the queue's own topic with a 400 naming the field, on create and on update", async () => {
    const created = await mq.post('/api/v1/queues', { name: 'ds-loop', topic_name: 'd-settings', dead_letter_topic: 'd-settings' }, mq.adminKey);
    expect(created.status).toBe(400);
    expect(created.body.errors.map((e: { field: string }) => e.field)).toEqual(['dead_letter_topic']);
    const updated = await mq.patch('/api/v1/queues/ds-plain', { dead_letter_topic: 'd-settings' }, mq.adminKey);
    expect(updated.status).toBe(400);
    expect(updated.body.errors.map((e: { field: string }) => e.field)).toEqual(['dead_letter_topic']);
  });

  it('refuse an unknown topic with 404 topic_not_found naming the field, and a bad one with 400', async () => {
    for (const response of [
      await mq.post('/api/v1/queues', { name: 'ds-unknown', topic_name: 'd-settings', dead_letter_topic: 'no-such-topic' }, mq.adminKey),
      await mq.patch('/api/v1/queues/ds-plain', { dead_letter_topic: 'no-such-topic' }, mq.adminKey),
    ]) {
      expect(response.status).toBe(404);
      expect(response.body.code).toBe('topic_not_found');
      expect(response.body.message).toContain('dead_letter_topic');
    }
    for (const [field, value] of [
      ['dead_letter_topic', 'a/b'],
      ['dead_letter_keep', 'yes'],
    ] as const) {
      const response = await mq.patch('/api/v1/queues/ds-plain', { [field]: value }, mq.adminKey);
      expect(response.status).toBe(400);
      expect(response.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
  });

  it('go back to null when the topic is deleted', async () => {
    await topic('d-settings.gone', []);
    expect((await mq.patch('/api/v1/queues/ds-plain', { dead_letter_topic: 'd-settings.gone' }, mq.adminKey)).status).toBe(200);
    expect((await mq.del('/api/v1/topics/d-settings.gone', mq.adminKey)).status).toBe(204);
    expect((await mq.get('/api/v1/queues/ds-plain', mq.adminKey)).body.dead_letter_topic).toBeNull();
  });
});

describe('a routed dead letter', () => {
  beforeAll(async () => {
    await topic('r-dead', [{ name: 'r-catch' }, { name: 'r-catch-filtered', filter: { header: 'miniqueue-death-reason', equals: 'TTL_EXPIRED' } }]);
    await topic('r-orders', [
      { name: 'r-moved', dead_letter_topic: 'r-dead', max_retries: 0 },
      { name: 'r-kept', dead_letter_topic: 'r-dead', dead_letter_keep: true, max_retries: 0 },
    ]);
  });

  it('arrives in the queues of the topic as an ordinary message, with the death headers; kept in the DLQ only with dead_letter_keep', async () => {
    const before = Date.now();
    const { 'r-moved': moved, 'r-kept': kept } = await publishTo('r-orders', { payload: 'nacked', headers: { app: 'shop' } });
    await receive('r-moved');
    await receive('r-kept');
    expect((await nackDead(moved)).body.status).toBe('DEAD');
    expect((await nackDead(kept)).body.status).toBe('DEAD');
    const caught = await receive('r-catch');
    expect(caught.map((m) => [m.payload, m.headers['miniqueue-death-queue']]).sort()).toEqual([
      ['nacked', 'r-kept'],
      ['nacked', 'r-moved'],
    ]);
    for (const message of caught) {
      expect(message.headers).toMatchObject({ app: 'shop', 'miniqueue-death-reason': 'NACKED', 'miniqueue-death-count': '1' });
      expect(Date.parse(message.headers['miniqueue-death-time'])).toBeGreaterThanOrEqual(before - 1000);
    }
    // The filtered queue of the topic takes only what its filter says.
    expect(await receive('r-catch-filtered')).toEqual([]);
    expect(await deadIn('r-moved')).toEqual([]);
    expect((await deadIn('r-kept')).map((row) => row.id)).toEqual([kept]);
    await expectExactCounters(['r-moved', 'r-kept', 'r-catch', 'r-catch-filtered']);
  });

  it('comes from every path that dead-letters: retries exhausted, lease expiry, time to live, overflow', async () => {
    await topic('r-paths.dead', [{ name: 'r-paths-catch' }, { name: 'r-paths-ttl', filter: { header: 'miniqueue-death-reason', equals: 'TTL_EXPIRED' } }]);
    await topic('r-paths', [
      { name: 'r-retry', dead_letter_topic: 'r-paths.dead', max_retries: 0 },
      { name: 'r-lease', dead_letter_topic: 'r-paths.dead', max_retries: 0 },
      { name: 'r-ttl', dead_letter_topic: 'r-paths.dead' },
      { name: 'r-full', dead_letter_topic: 'r-paths.dead', max_messages: 1, overflow: 'dead_letter_oldest' },
    ]);
    const { 'r-retry': retry, 'r-lease': lease, 'r-ttl': ttl } = await publishTo('r-paths', { payload: 'first', expires_in_seconds: 600 });
    await publish('r-paths', { payload: 'second' }); // r-full makes room: 'first' dies of OVERFLOW
    expect((await receive('r-retry', 1))[0].message_id).toBe(retry);
    expect((await mq.post(`/api/v1/messages/${retry}/nack`, { requeue: true }, mq.adminKey)).body.status).toBe('DEAD');
    expect((await receive('r-lease', 1))[0].message_id).toBe(lease);
    await expireAllLeases(mq);
    await leaseSweeper(mq.pool, mq.broker.context.changes).runOnce();
    await mq.pool.query(`UPDATE message SET expires_at = now() - interval '1 millisecond' WHERE id = $1`, [ttl]);
    await expirySweeper(mq.pool, mq.broker.context.changes).runOnce();
    const reasons = (await receive('r-paths-catch')).map((m) => `${m.headers['miniqueue-death-queue']} ${m.headers['miniqueue-death-reason']}`).sort();
    expect(reasons).toEqual(['r-full OVERFLOW', 'r-lease EXPIRED', 'r-retry RETRIES_EXHAUSTED', 'r-ttl TTL_EXPIRED']);
    expect((await receive('r-paths-ttl')).map((m) => m.headers['miniqueue-death-queue'])).toEqual(['r-ttl']);
    await expectExactCounters(['r-retry', 'r-lease', 'r-ttl', 'r-full', 'r-paths-catch', 'r-paths-ttl']);
  });

  it('stays in the DLQ when no queue of the topic takes it', async () => {
    await topic('r-empty', []);
    await topic('r-nowhere', [{ name: 'r-nowhere-q', dead_letter_topic: 'r-empty' }]);
    const [id] = await publish('r-nowhere', { payload: 'x' });
    await receive('r-nowhere-q');
    await nackDead(id);
    expect((await deadIn('r-nowhere-q')).map((row) => row.id)).toEqual([id]);
  });

  it('is stored in the transaction of the death: no copy without the death', async () => {
    await topic('r-atomic.dead', [{ name: 'r-atomic-catch' }]);
    await topic('r-atomic', [{ name: 'r-atomic-q', dead_letter_topic: 'r-atomic.dead', dead_letter_keep: true }]);
    const [id] = await publish('r-atomic', { payload: 'doomed' });
    await receive('r-atomic-q');
    // The death fails (its dead-letter row is refused): the routed copy must not be stored either.
    await mq.pool.query(`CREATE FUNCTION refuse_doomed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.payload = 'doomed' THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$`);
    await mq.pool.query('CREATE TRIGGER refuse_doomed BEFORE INSERT ON message_dead FOR EACH ROW EXECUTE FUNCTION refuse_doomed()');
    try {
      expect((await nackDead(id)).status).toBe(500);
    } finally {
      await mq.pool.query('DROP TRIGGER refuse_doomed ON message_dead; DROP FUNCTION refuse_doomed()');
    }
    expect(await live('r-atomic-catch')).toEqual([]);
    expect((await mq.pool.query('SELECT status FROM message WHERE id = $1', [id])).rows).toEqual([{ status: 'UNACKED' }]);
    expect((await nackDead(id)).body.status).toBe('DEAD');
    expect((await live('r-atomic-catch')).map((row) => row.payload)).toEqual(['doomed']);
    await expectExactCounters(['r-atomic-q', 'r-atomic-catch']);
  });
});

describe('a loop of dead-letter topics', () => {
  it('is cut after 10 hops: past that, the dead letter stays in the DLQ of the queue it died in', async () => {
    await topic('l-a', [{ name: 'l-qa', dead_letter_topic: null }]);
    await topic('l-b', [{ name: 'l-qb', dead_letter_topic: 'l-a' }]);
    // The loop closed behind the configuration's back (the API refuses it), as one set up before that rule.
    await mq.pool.query(`UPDATE queue SET dead_letter_topic = 'l-b' WHERE name = 'l-qa'`);
    await publish('l-a', { payload: 'ping' });
    const counts: string[] = [];
    for (let hop = 0; hop < 11; hop++) {
      const queue = hop % 2 === 0 ? 'l-qa' : 'l-qb';
      const [message] = await receive(queue);
      expect(message, `hop ${hop}`).toBeDefined();
      counts.push(message.headers['miniqueue-death-count'] ?? '-');
      expect((await nackDead(message.message_id)).body.status).toBe('DEAD');
    }
    expect(counts).toEqual(['-', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
    // The 11th death is not routed: it stays where it died (l-qa), and neither queue has a live copy.
    expect(await live('l-qa')).toEqual([]);
    expect(await live('l-qb')).toEqual([]);
    expect(await deadIn('l-qb')).toEqual([]);
    const dead = await mq.pool.query('SELECT dead_reason, headers FROM message_dead WHERE queue_name = $1', ['l-qa']);
    expect(dead.rows).toHaveLength(1);
    expect(dead.rows[0].dead_reason).toBe('NACKED');
    expect(dead.rows[0].headers['miniqueue-death-count']).toBe('10');
    await expectExactCounters(['l-qa', 'l-qb']);
  });
});

describe('a cycle of dead-letter topics', () => {
  const createQueue = (name: string, topicName: string, deadLetterTopic: string | null) =>
    mq.post('/api/v1/queues', { name, topic_name: topicName, dead_letter_topic: deadLetterTopic }, mq.adminKey);
  const expectCycleRefused = (response: { status: number; body: any }, cycle: string) => {
    expect(response.status, JSON.stringify(response.body)).toBe(400);
    expect(response.body.code).toBe('validation_failed');
    expect(response.body.errors).toEqual([{ field: 'dead_letter_topic', message: expect.stringContaining(cycle) }]);
  };

  it('is refused on create and on update, naming the cycle, and nothing is stored', async () => {
    // 2x2: two topics, each with two queues, each queue's dead letters going to the other topic.
    await topic('c-a', [
      { name: 'c-a1', dead_letter_topic: null },
      { name: 'c-a2', dead_letter_topic: null },
    ]);
    await topic('c-b', [
      { name: 'c-b1', dead_letter_topic: 'c-a' },
      { name: 'c-b2', dead_letter_topic: 'c-a' },
    ]);
    // Closing it by setting a queue's dead-letter topic.
    expectCycleRefused(await mq.patch('/api/v1/queues/c-a1', { dead_letter_topic: 'c-b' }, mq.adminKey), 'c-a → c-b → c-a');
    expect((await mq.get('/api/v1/queues/c-a1', mq.adminKey)).body.dead_letter_topic).toBeNull();
    // Closing it by binding a new queue to the topic.
    expectCycleRefused(await createQueue('c-a3', 'c-a', 'c-b'), 'c-a → c-b → c-a');
    expect((await mq.get('/api/v1/queues/c-a3', mq.adminKey)).status).toBe(404);
    // Other settings of a queue on the cycle's path still change; a dead-letter topic off the cycle is taken.
    expect((await mq.patch('/api/v1/queues/c-b1', { max_retries: 3 }, mq.adminKey)).status).toBe(200);
    await topic('c-off', [{ name: 'c-off1' }]);
    expect((await mq.patch('/api/v1/queues/c-a1', { dead_letter_topic: 'c-off' }, mq.adminKey)).status).toBe(200);
  });

  it('is refused however long, with every topic of it named in order', async () => {
    await topic('c3-x', [{ name: 'c3-x1', dead_letter_topic: null }]);
    await topic('c3-y', [{ name: 'c3-y1', dead_letter_topic: 'c3-x' }]);
    await topic('c3-z', [{ name: 'c3-z1', dead_letter_topic: 'c3-y' }]);
    expectCycleRefused(await mq.patch('/api/v1/queues/c3-x1', { dead_letter_topic: 'c3-z' }, mq.adminKey), 'c3-x → c3-z → c3-y → c3-x');
    // A chain that does not come back is fine.
    await topic('c3-end', []);
    expect((await mq.patch('/api/v1/queues/c3-x1', { dead_letter_topic: 'c3-end' }, mq.adminKey)).status).toBe(200);
  });

  it('is refused even when its two halves are set at the same moment', async () => {
    for (let round = 0; round < 8; round++) {
      await topic(`c-race-${round}-a`, []);
      await topic(`c-race-${round}-b`, []);
      const answers = await Promise.all([
        createQueue(`c-race-${round}-qa`, `c-race-${round}-a`, `c-race-${round}-b`),
        createQueue(`c-race-${round}-qb`, `c-race-${round}-b`, `c-race-${round}-a`),
      ]);
      expect(answers.map((answer) => answer.status).sort(), `round ${round}`).toEqual([201, 400]);
    }
  });
});

describe('a cycle of dead-letter topics made before cycles were refused', () => {
  it('makes at most MAX_DEAD_LETTER_COPIES routed copies of a message, however its topics fan out', async () => {
    const queues = ['b-a1', 'b-a2', 'b-b1', 'b-b2'];
    const settings = { message_ttl_seconds: 1, dead_letter_keep: true, dead_letter_topic: null };
    await topic('b-a', [
      { name: 'b-a1', ...settings },
      { name: 'b-a2', ...settings },
    ]);
    await topic('b-b', [
      { name: 'b-b1', ...settings },
      { name: 'b-b2', ...settings },
    ]);
    await mq.pool.query(`UPDATE queue SET dead_letter_topic = CASE WHEN topic_name = 'b-a' THEN 'b-b' ELSE 'b-a' END WHERE name = ANY($1)`, [queues]);
    await publish('b-a', { payload: 'once' });
    // No consumer: every copy dies of its TTL, and each death is routed to both queues of the other topic.
    for (let pass = 0; pass < 40; pass++) {
      const { rows } = await mq.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM message WHERE queue_name = ANY($1)', [queues]);
      if (rows[0].n === 0) break;
      await mq.pool.query(`UPDATE message SET expires_at = now() - interval '1 millisecond' WHERE queue_name = ANY($1)`, [queues]);
      await expirySweeper(mq.pool, mq.broker.context.changes).runOnce();
    }
    expect((await mq.pool.query('SELECT count(*)::int AS n FROM message WHERE queue_name = ANY($1)', [queues])).rows[0].n).toBe(0);
    // dead_letter_keep: every message that ever lived is in the dead letters, the two published and their copies.
    const dead = (await mq.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM message_dead WHERE queue_name = ANY($1)', [queues])).rows[0].n;
    expect(dead).toBeGreaterThan(2);
    expect(dead).toBeLessThanOrEqual(2 * (1 + MAX_DEAD_LETTER_COPIES));
    // The first death of each went to two queues: 2 of its 100 spent, the other 98 shared between them.
    const firstHop = await mq.pool.query(`SELECT headers FROM message_dead WHERE queue_name = ANY($1) AND headers->>'miniqueue-death-count' = '1'`, [queues]);
    expect(firstHop.rows.map((row) => row.headers['miniqueue-death-copies-left'])).toEqual(['49', '49', '49', '49']);
    await expectExactCounters(queues);
  });
});
