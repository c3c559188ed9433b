import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { topology } from '../helpers/fixtures.js';
import { openStream, publishFrame, type TestStream } from '../stream/support.js';

/** A stream's publishes into a full reject_publish queue: each refused one is its own `reject`, the others confirmed. */
let mq: TestBroker;
let stream: TestStream | undefined;

beforeAll(async () => {
  mq = await startTestBroker({ listen: true });
  await topology(mq, 'capped', [{ name: 'capped-queue' }]);
  expect((await mq.patch('/api/v1/queues/capped-queue', { max_messages: 2 }, mq.adminKey)).status).toBe(200);
});
afterAll(async () => {
  stream?.ws.terminate();
  await mq.stop();
});

describe('/ws/v1/stream: publishing to a bounded queue', () => {
  it('rejects the frames that do not fit with queue_full and its Retry-After, and confirms the others', async () => {
    stream = await openStream(mq, { key: mq.adminKey });
    for (let seq = 1; seq <= 4; seq++) stream.send(publishFrame(seq, 'capped', `m${seq}`));
    const answers = [];
    for (let seq = 1; seq <= 4; seq++) answers.push(await stream.next((frame) => (frame.type === 'confirm' || frame.type === 'reject') && frame.seq === seq));
    expect(answers.map((frame) => frame.type)).toEqual(['confirm', 'confirm', 'reject', 'reject']);
    expect(answers[2]).toMatchObject({ status: 429, code: 'queue_full', retry_after_seconds: 1 });
    expect(answers[2].message).toContain('capped-queue');
    expect((await mq.pool.query('SELECT count(*)::int AS n FROM message WHERE queue_name = $1', ['capped-queue'])).rows[0].n).toBe(2);
  });
});
