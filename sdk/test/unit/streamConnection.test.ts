import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionError, ForbiddenError, MiniQueue, UnauthorizedError } from '../../src/index.js';
import { startFakeStream, type FakeStream } from '../helpers/fakeStream.js';

let fake: FakeStream | undefined;
let client: MiniQueue | undefined;
afterEach(async () => {
  client?.close();
  await fake?.close();
});

async function setUp(options: { retry?: { attempts?: number; baseDelayMs?: number } } = {}) {
  fake = await startFakeStream();
  const warnings: string[] = [];
  client = new MiniQueue({ url: fake.url, apiKey: 'mq_test', instanceId: 'worker-1', logger: { warn: (message) => warnings.push(message) }, ...options });
  return { fake, client, warnings };
}

describe('the stream against a stand-in broker', () => {
  it('sends 1,000 publishes of one turn in one WebSocket message, with the key and instance', async () => {
    const { fake, client } = await setUp();
    const results = await Promise.all(Array.from({ length: 1000 }, (_, i) => client.publish('t', `p${i}`)));
    expect(results.every((result) => result.message_ids.length === 1 && !result.duplicate)).toBe(true);
    expect(fake.stored.size).toBe(1000);
    expect(fake.messages.length).toBeLessThanOrEqual(2); // one turn; the first ones may go before the welcome's turn
    const handshake = fake.handshakes[0];
    expect(handshake.headers['sec-websocket-protocol']).toBe('miniqueue.v1');
    expect(handshake.headers.authorization).toBe('Bearer mq_test');
    expect(new URL(handshake.url!, 'http://x').searchParams.get('instance')).toBe('worker-1');
  });

  it('after a cut, resumes with the token and resends the unconfirmed with their same seq and key', async () => {
    const { fake, client } = await setUp({ retry: { attempts: 10, baseDelayMs: 50 } });
    await client.publish('t', 'warm-up');
    fake.holdConfirms = true;
    const pending = Array.from({ length: 20 }, (_, i) => client.publish('t', `p${i}`));
    while (fake.publishes.length < 21) await new Promise((resolve) => setTimeout(resolve, 5));
    const firstSent = fake.publishes.slice(1).map((frame) => [frame.seq, frame.idempotency_key]);
    fake.holdConfirms = false;
    fake.cut();
    const results = await Promise.all(pending);
    expect(results.every((result) => result.duplicate)).toBe(true); // stored before the cut, confirmed after it
    expect(fake.stored.size).toBe(21);
    expect(fake.publishes.slice(21).map((frame) => [frame.seq, frame.idempotency_key])).toEqual(firstSent);
    expect(new URL(fake.handshakes[1].url!, 'http://x').searchParams.get('resume')).toBe('tok1');
  });

  it('falls back to HTTP when the handshake is refused, and says so once', async () => {
    const { fake, client, warnings } = await setUp();
    fake.refuseWith = 404;
    const first = await client.publish('t', 'a').catch((error: unknown) => error);
    const second = await client.publish('t', 'b').catch((error: unknown) => error);
    // The stand-in answers HTTP with 404: what matters is that the publishes went that way.
    expect(first).toMatchObject({ status: 404 });
    expect(second).toMatchObject({ status: 404 });
    expect(fake.handshakes).toHaveLength(1);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/streaming is unavailable.*using HTTP/);
  });

  it('a handshake refused for the key (401, 403) rejects with the typed error and its code, without a word of HTTP', async () => {
    for (const [status, code, type] of [
      [401, 'unauthenticated', UnauthorizedError],
      [403, 'origin_not_allowed', ForbiddenError],
    ] as const) {
      const { fake, client, warnings } = await setUp();
      fake.refuseWith = status;
      fake.refuseCode = code;
      // Over HTTP the stand-in would answer 404: a 404 here would mean the publish fell back to it.
      const refused = await client.publish('t', 'a').catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(type);
      expect(refused).toMatchObject({ status, code });
      expect(warnings).toEqual([]);
      // Not given up on: the next call asks the stream again (a key may be fixed meanwhile).
      await expect(client.publish('t', 'b')).rejects.toMatchObject({ status, code });
      expect(fake.handshakes).toHaveLength(2);
      client.close();
      await fake.close();
    }
  });

  it('an unreachable broker is named, without its credentials, with the cause', async () => {
    const closed = await startFakeStream();
    const port = new URL(closed.url).port;
    await closed.close();
    const warnings: string[] = [];
    client = new MiniQueue({
      url: `http://127.0.0.1:${port}`,
      apiKey: 'mq_test',
      logger: { warn: (message) => warnings.push(message) },
      retry: { attempts: 1 },
    });
    const failed = await client.publish('t', 'a').catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ConnectionError);
    expect((failed as Error).message).toBe(`Cannot reach the broker stream at ws://127.0.0.1:${port}/ws/v1/stream (ECONNREFUSED)`);
    expect(warnings).toEqual([]);
  });

  it("with transport 'http' opens no WebSocket", async () => {
    fake = await startFakeStream();
    client = new MiniQueue({ url: fake.url, apiKey: 'mq_test', transport: 'http' });
    await client.publish('t', 'a').catch(() => undefined);
    expect(fake.handshakes).toHaveLength(0);
  });
});
