import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_MESSAGES } from '../helpers/allMessages.js';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { topology } from '../helpers/fixtures.js';

let mq: TestBroker;

beforeAll(async () => {
  // The load is as fast as this machine goes, and longer while the delete waits for its lock: no
  // rate limit, which is not what this tests.
  mq = await startTestBroker({ env: { MINIQUEUE_RATE_LIMIT_ENABLED: 'false' } });
});
afterAll(() => mq.stop());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('deleting a queue under publish load', () => {
  it('leaves no message of it behind, and a queue made again under its name starts empty', async () => {
    for (let round = 0; round < 3; round += 1) {
      await topology(mq, `del-${round}`, [{ name: `doomed-${round}` }, { name: `other-${round}` }]);
      let publishing = true;
      const publishers = Array.from({ length: 16 }, async () => {
        while (publishing) {
          const answer = await mq.post(`/api/v1/topics/del-${round}/messages`, { payload: 'x' }, mq.adminKey);
          expect(answer.status).toBe(201);
        }
      });
      await sleep(150);
      expect((await mq.del(`/api/v1/queues/doomed-${round}`, mq.adminKey)).status).toBe(204);
      await sleep(100);
      publishing = false;
      await Promise.all(publishers);

      const { rows } = await mq.pool.query(`SELECT count(*)::int AS n FROM ${ALL_MESSAGES} WHERE queue_name = $1`, [`doomed-${round}`]);
      expect(rows[0].n).toBe(0);
      const other = await mq.pool.query(`SELECT count(*)::int AS n FROM ${ALL_MESSAGES} WHERE queue_name = $1`, [`other-${round}`]);
      expect(other.rows[0].n).toBeGreaterThan(0);
      await topology(mq, `del-${round}-again`, []);
      expect((await mq.post('/api/v1/queues', { name: `doomed-${round}`, topic_name: `del-${round}` }, mq.adminKey)).status).toBe(201);
      expect((await mq.get(`/api/v1/queues/doomed-${round}/messages`, mq.adminKey)).body.items).toEqual([]);
    }
  });
});
