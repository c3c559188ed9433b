import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { statusOf, topology } from '../helpers/fixtures.js';

let mq: TestBroker;

beforeAll(async () => {
  mq = await startTestBroker();
  await topology(mq, 'race', [{ name: 'race-q' }]);
});
afterAll(() => mq.stop());

const MESSAGES = 60;

/** Dead messages, made directly: what matters here is the race, not how they died. */
async function deadMessages(count: number): Promise<string[]> {
  const { rows } = await mq.pool.query<{ id: string }>(
    `INSERT INTO message_dead (id, seq, queue_name, topic_name, payload, headers, retry_count, published_at, available_at, dead_at, dead_reason)
     SELECT gen_random_uuid(), nextval('message_seq'), 'race-q', 'race', 'p' || i, '{}', 3, now(), now(), now(), 'NACKED'
       FROM generate_series(1, $1) i RETURNING id`,
    [count],
  );
  return rows.map((row) => row.id);
}

describe('deleting and replaying the same dead message at once', () => {
  it('lets exactly one of them win, every time', async () => {
    const ids = await deadMessages(MESSAGES);
    const outcomes = await Promise.all(
      ids.map(async (id) => {
        const [deleted, replayed] = await Promise.all([
          mq.del(`/api/v1/dashboard/dlq/${id}`, mq.adminKey),
          mq.post(`/api/v1/dashboard/dlq/${id}/replay`, undefined, mq.adminKey),
        ]);
        return { id, deleted: deleted.status, replayed: replayed.status, now: (await statusOf(mq, id))?.status ?? 'GONE' };
      }),
    );
    for (const outcome of outcomes) {
      // Delete won: the message is gone and the replay found nothing. Replay won: it is PENDING and the delete found it alive.
      const deleteWon = { ...outcome, deleted: 204, replayed: 404, now: 'GONE' };
      const replayWon = { ...outcome, deleted: 409, replayed: 200, now: 'PENDING' };
      expect([deleteWon, replayWon]).toContainEqual(outcome);
    }
  });
});
