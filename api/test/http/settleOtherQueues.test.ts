import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { publishOne, statusOf, topology } from '../helpers/fixtures.js';

/**
 * Settling a message of a queue the key may not consume is answered exactly as settling an id
 * no message has, as reading it is (GET /messages/{id}): the answer tells nothing of other
 * queues' messages, not even that one exists, nor its queue's name.
 */
let mq: TestBroker;
let owner: string;
let outsider: string;
const UNKNOWN = '00000000-0000-7000-8000-000000000000';

beforeAll(async () => {
  mq = await startTestBroker();
  await topology(mq, 'hidden', [{ name: 'hidden-q' }, { name: 'hidden-other' }]);
  owner = await mq.clientKey('hidden-owner', ['consume:hidden-q']);
  outsider = await mq.clientKey('hidden-outsider', ['consume:hidden-other']);
});
afterAll(() => mq.stop());

/** A message of hidden-q, claimed by its owner (so only the queue keeps the outsider out). */
async function heldMessage(): Promise<string> {
  await publishOne(mq, 'hidden', 'secret');
  const claimed = await mq.post('/api/v1/queues/hidden-q/consume', undefined, owner);
  expect(claimed.status).toBe(200);
  return claimed.body.message_id;
}

const withId = (body: { message: string }, from: string, to: string) => ({ ...body, message: body.message.replace(from, to) });

describe('settling a message of a queue the key may not consume', () => {
  it.each([
    ['ack', undefined],
    ['nack', { requeue: false }],
    ['extend', { seconds: 30 }],
  ])('%s answers the same 404 as for an unknown id', async (verb, body) => {
    const id = await heldMessage();
    const hidden = await mq.post(`/api/v1/messages/${id}/${verb}`, body, outsider);
    const missing = await mq.post(`/api/v1/messages/${UNKNOWN}/${verb}`, body, outsider);
    expect([hidden.status, hidden.body.code]).toEqual([404, 'message_not_found']);
    expect(hidden.body).toEqual(withId(missing.body, UNKNOWN, id));
    expect(JSON.stringify(hidden.body)).not.toContain('hidden-q');
    expect((await statusOf(mq, id))?.status).toBe('UNACKED');
  });

  it('a batch ack reports it as it reports an unknown id', async () => {
    const id = await heldMessage();
    const response = await mq.post('/api/v1/messages/ack', { message_ids: [id, UNKNOWN] }, outsider);
    expect(response.status).toBe(200);
    expect(response.body.acked).toEqual([]);
    const [hidden, missing] = response.body.failed;
    expect(hidden).toEqual({ ...withId(missing, UNKNOWN, id), message_id: id });
    expect(hidden).toMatchObject({ status: 404, code: 'message_not_found' });
    expect(JSON.stringify(response.body)).not.toContain('hidden-q');
    expect((await statusOf(mq, id))?.status).toBe('UNACKED');
  });

  it('the owner still settles it', async () => {
    const id = await heldMessage();
    expect((await mq.post(`/api/v1/messages/${id}/ack`, undefined, owner)).status).toBe(200);
  });
});
