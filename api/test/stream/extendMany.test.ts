import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { topology } from '../helpers/fixtures.js';
import { sentDuring } from '../helpers/statements.js';
import { openStream } from './support.js';

let mq: TestBroker;
let key: string;
const N = 400;

beforeAll(async () => {
  mq = await startTestBroker({ listen: true });
  await topology(mq, 'held', [{ name: 'held', ack_timeout_seconds: 60 }]);
  key = await mq.clientKey('holder', ['publish:held', 'consume:held']);
  const messages = Array.from({ length: N }, (_, i) => ({ payload: `m${i}` }));
  const published = await mq.post('/api/v1/topics/held/messages/batch', { messages }, key);
  expect(published.status).toBe(201);
});
afterAll(() => mq.stop());

describe('extend with many ids', () => {
  it('extends every lease of the frame in one statement, whatever their number', async () => {
    const s = await openStream(mq, { key });
    s.send({ type: 'subscribe', sub: 'all', queue: 'held', prefetch: N });
    const held = (await s.collect((frame) => frame.type === 'deliver', N)).map((frame) => frame.message.message_id);
    let answer: any;
    const statements = await sentDuring(async () => {
      s.send({ type: 'extend', ids: held, seconds: 600, ref: 1 });
      answer = await s.next((frame) => frame.type === 'extended' && frame.ref === 1);
    });
    expect(answer.extended).toHaveLength(N);
    expect(answer.failed).toEqual([]);
    // What the frame cost: the statements naming its messages (the broker's periodic work names none).
    const naming = statements.filter((statement) => held.some((id) => JSON.stringify(statement.values).includes(id)));
    expect(naming).toHaveLength(1);
    expect(naming[0].text).toMatch(/^WITH r AS .*UPDATE message m SET lease_expires_at/s);
    await s.close();
  });
});
