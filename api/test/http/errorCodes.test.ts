import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/errorCodes.js';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { openapi } from '../helpers/contract.js';
import { publishOne, topology } from '../helpers/fixtures.js';

let mq: TestBroker;
beforeAll(async () => {
  mq = await startTestBroker();
  await topology(mq, 'codes', [{ name: 'codes-q' }]);
});
afterAll(() => mq.stop());

describe('error codes', () => {
  it('are the list openapi.yaml defines, no more and no fewer', () => {
    expect([...ERROR_CODES].sort()).toEqual([...openapi.components.schemas.ErrorCode.enum].sort());
  });

  it('name what went wrong, so a program need not read the message', async () => {
    const consumer = await mq.clientKey('codes-consumer', ['consume:codes-q']);
    const cases: [string, Promise<{ status: number; body: any }>, number, string][] = [
      ['unknown topic', mq.post('/api/v1/topics/nope/messages', { payload: 'x' }, mq.adminKey), 404, 'topic_not_found'],
      ['unknown queue', mq.post('/api/v1/queues/nope/consume', undefined, mq.adminKey), 404, 'queue_not_found'],
      ['unknown client', mq.del('/api/v1/clients/nope', mq.adminKey), 404, 'client_not_found'],
      ['existing topic', mq.post('/api/v1/topics', { name: 'codes' }, mq.adminKey), 409, 'topic_exists'],
      ['existing queue', mq.post('/api/v1/queues', { name: 'codes-q', topic_name: 'codes' }, mq.adminKey), 409, 'queue_exists'],
      ['topic with queues', mq.del('/api/v1/topics/codes', mq.adminKey), 409, 'topic_has_queues'],
      ['bad body', mq.post('/api/v1/topics', { name: 'a b' }, mq.adminKey), 400, 'validation_failed'],
      ['bad cursor', mq.get('/api/v1/queues/codes-q/messages?cursor=zzz', mq.adminKey), 400, 'validation_failed'],
      ['unknown scope', mq.post('/api/v1/clients', { name: 'codes-x', scopes: ['fly'] }, mq.adminKey), 400, 'unknown_scope'],
      ['no key', mq.get('/api/v1/topics'), 401, 'unauthenticated'],
      ['no route', mq.get('/api/v1/nowhere', mq.adminKey), 404, 'route_not_found'],
      ['wrong method', mq.request('PUT', '/api/v1/topics/codes', { key: mq.adminKey }), 405, 'method_not_allowed'],
      ['unknown message', mq.post('/api/v1/messages/00000000-0000-7000-8000-000000000000/ack', undefined, mq.adminKey), 404, 'message_not_found'],
    ];
    for (const [what, answer, status, code] of cases) {
      const { status: got, body } = await answer;
      expect({ what, status: got, code: body.code }).toEqual({ what, status, code });
    }

    const refused = await mq.post('/api/v1/queues/codes-q/consume', undefined, await mq.clientKey('codes-other', ['consume:elsewhere']));
    expect(refused.body).toMatchObject({ status: 403, code: 'scope_required', scope: 'consume:codes-q' });
    expect(consumer).toBeTruthy();
  });

  it('tell a lost lease from a message that is no longer held, in one ack and in a batch', async () => {
    const first = await mq.clientKey('codes-first', ['consume:codes-q']);
    const second = await mq.clientKey('codes-second', ['consume:codes-q']);
    const [id] = await publishOne(mq, 'codes', 'leased');
    expect((await mq.post('/api/v1/queues/codes-q/consume', undefined, first)).body.message_id).toBe(id);

    const stolen = await mq.post(`/api/v1/messages/${id}/ack`, undefined, second);
    expect(stolen.body).toMatchObject({ status: 409, code: 'lease_lost' });
    const batch = await mq.post('/api/v1/messages/ack', { message_ids: [id] }, second);
    expect(batch.body.failed).toEqual([{ message_id: id, status: 409, code: 'lease_lost', message: expect.any(String) }]);

    await mq.post(`/api/v1/messages/${id}/nack`, { requeue: false }, first);
    const dead = await mq.post(`/api/v1/messages/${id}/ack`, undefined, first);
    expect(dead.body).toMatchObject({ status: 409, code: 'message_not_unacked' });
  });

  it('say when an idempotency key is reused with other content', async () => {
    const headers = { 'Idempotency-Key': 'codes-key' };
    expect((await mq.post('/api/v1/topics/codes/messages', { payload: 'one' }, mq.adminKey, headers)).status).toBe(201);
    const reused = await mq.post('/api/v1/topics/codes/messages', { payload: 'two' }, mq.adminKey, headers);
    expect(reused.body).toMatchObject({ status: 409, code: 'idempotency_conflict' });
  });
});
