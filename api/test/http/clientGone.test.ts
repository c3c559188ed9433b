import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { publishOne, statusOf, topology } from '../helpers/fixtures.js';
import { eventually } from '../helpers/eventually.js';

let mq: TestBroker;
let consumer: string;

beforeAll(async () => {
  mq = await startTestBroker({ listen: true });
  await topology(mq, 'gone', [{ name: 'gone-q', max_retries: 0 }]);
  consumer = await mq.clientKey('gone-consumer', ['consume:gone-q']);
});
afterAll(() => mq.stop());

/** Starts a long poll over a real socket and hangs up after `ms`, as a client with a short timeout does. */
function pollThenHangUp(path: string, body: unknown, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const payload = body === undefined ? '' : JSON.stringify(body);
    const request = http.request(`${mq.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${consumer}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
    });
    request.on('error', () => resolve());
    request.end(payload);
    setTimeout(() => {
      request.destroy();
      resolve();
    }, ms);
  });
}

const waiting = () => mq.broker.context.waiters.size();

describe('a long poll whose client went away', () => {
  for (const [route, body] of [
    ['/api/v1/queues/gone-q/consume?wait_seconds=20', undefined],
    ['/api/v1/queues/gone-q/receive', { wait_seconds: 20, max_messages: 10 }],
  ] as const) {
    it(`claims nothing for nobody: ${route.split('?')[0]}`, async () => {
      await pollThenHangUp(route, body, 300);
      // The waiter leaves as soon as the connection closes.
      await eventually(() => waiting() === 0, 'the waiter to leave');
      const [id] = await publishOne(mq, 'gone', 'for someone who is there');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await statusOf(mq, id)).toEqual({ status: 'PENDING', retry_count: 0, consumer_id: null });
      // With max_retries 0, a claim for nobody would have sent it to the dead letters on expiry.
      const claimed = await mq.post('/api/v1/queues/gone-q/consume', undefined, consumer);
      expect(claimed.body).toMatchObject({ message_id: id, retry_count: 0 });
      await mq.post(`/api/v1/messages/${id}/ack`, undefined, consumer);
    });
  }
});
