import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { publishOne, statusOf, topology } from '../helpers/fixtures.js';

let mq: TestBroker;
let consumer: string;

beforeAll(async () => {
  mq = await startTestBroker();
  await topology(mq, 'dlqdel', [{ name: 'dlqdel-q' }]);
  consumer = await mq.clientKey('dlqdel-consumer', ['consume:dlqdel-q']);
});
afterAll(() => mq.stop());

async function deadMessage(): Promise<string> {
  const [id] = await publishOne(mq, 'dlqdel', 'doomed');
  expect((await mq.post('/api/v1/queues/dlqdel-q/consume', undefined, consumer)).body.message_id).toBe(id);
  expect((await mq.post(`/api/v1/messages/${id}/nack`, { requeue: false }, consumer)).body.status).toBe('DEAD');
  return id;
}

describe('DELETE /api/v1/dashboard/dlq/{id}', () => {
  it('deletes one dead message for good; a second delete is 404', async () => {
    const [id, kept] = [await deadMessage(), await deadMessage()];
    const deleted = await mq.del(`/api/v1/dashboard/dlq/${id}`, mq.adminKey);
    expect([deleted.status, deleted.body]).toEqual([204, '']);
    expect(await statusOf(mq, id)).toBeUndefined();
    const dlq = await mq.get('/api/v1/dashboard/dlq?queue=dlqdel-q', mq.adminKey);
    expect(dlq.body.items.map((m: { message_id: string }) => m.message_id)).toEqual([kept]);
    const again = await mq.del(`/api/v1/dashboard/dlq/${id}`, mq.adminKey);
    expect([again.status, again.body.code]).toEqual([404, 'message_not_found']);
  });

  it('leaves a message that is not dead alone, with 409 as replay does', async () => {
    const [id] = await publishOne(mq, 'dlqdel', 'alive');
    const refused = await mq.del(`/api/v1/dashboard/dlq/${id}`, mq.adminKey);
    expect([refused.status, refused.body.code]).toEqual([409, 'message_not_dead']);
    expect((await statusOf(mq, id))?.status).toBe('PENDING');
    await mq.pool.query('DELETE FROM message WHERE id = $1', [id]);
  });

  it('is for admins only, and takes only UUIDs', async () => {
    const id = await deadMessage();
    const viewer = await mq.clientKey('dlqdel-viewer', ['view', 'consume:dlqdel-q']);
    const refused = await mq.del(`/api/v1/dashboard/dlq/${id}`, viewer);
    expect([refused.status, refused.body.code]).toEqual([403, 'scope_required']);
    expect((await statusOf(mq, id))?.status).toBe('DEAD');
    const bad = await mq.del('/api/v1/dashboard/dlq/nope', mq.adminKey);
    expect([bad.status, bad.body.code]).toEqual([400, 'validation_failed']);
  });
});
