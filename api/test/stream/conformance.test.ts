import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { publishOne, topology } from '../helpers/fixtures.js';
import { assertMessage, assertRefusal, closeCodes, frameTypes, seen, type Direction } from '../helpers/streamFrames.js';
import { openStream, publishFrame, type TestStream } from './support.js';

/**
 * A real stream to a real broker, every frame type of asyncapi.yaml at least once in each direction,
 * the refusals included: each message the broker sends and each frame the test sends goes through
 * the document's schemas, and what the broker refuses as malformed the document must refuse too.
 */
const MAX_PAYLOAD_BYTES = 4096;
let mq: TestBroker;
let key: string;
const streams: TestStream[] = [];
const offContract: string[] = [];
const closes = new Set<number>();

beforeAll(async () => {
  mq = await startTestBroker({ listen: true, env: { MINIQUEUE_STREAM_RESUME_GRACE_MS: '2000', MINIQUEUE_MAX_PAYLOAD_BYTES: String(MAX_PAYLOAD_BYTES) } });
  await topology(mq, 'orders', [{ name: 'billing', ack_timeout_seconds: 60 }]);
  await topology(mq, 'doomed', [{ name: 'doomed' }]);
  await topology(mq, 'secret', [{ name: 'secret' }]);
  key = await mq.clientKey('conformer', ['publish:orders', 'publish:nowhere', 'consume:billing', 'consume:doomed', 'consume:ghost']);
});
afterAll(async () => {
  for (const stream of streams) stream.ws.terminate();
  await mq.stop();
});
afterEach(() => expect(offContract.splice(0)).toEqual([]));

function check(direction: Direction, data: unknown): void {
  try {
    assertMessage(direction, data);
  } catch (error) {
    offContract.push((error as Error).message);
  }
}

async function open(options: { key?: string; query?: string } = {}): Promise<TestStream> {
  const stream = await openStream(mq, { key: options.key ?? key, query: options.query, onMessage: (data) => check('send', data) });
  streams.push(stream);
  void stream.closed.then(({ code }) => closes.add(code));
  return stream;
}

/** Sends what the document allows a client to send. */
function send(stream: TestStream, value: object | object[]): void {
  assertMessage('receive', value);
  stream.send(value);
}

/** Sends what the document does not allow: the broker must refuse it as well. */
function sendMalformed(stream: TestStream, value: unknown): void {
  expect(() => assertMessage('receive', value), JSON.stringify(value)).toThrow();
  stream.ws.send(JSON.stringify(value));
}

const ofType =
  (type: string, extra: (frame: any) => boolean = () => true) =>
  (frame: any) =>
    frame.type === type && extra(frame);

describe('/ws/v1/stream keeps to asyncapi.yaml', () => {
  it('publishing: confirm, and reject for each reason', async () => {
    const s = await open();
    send(s, [
      publishFrame(1, 'orders', 'one'),
      publishFrame(2, 'orders', 'two', { headers: { kind: 'test' }, ordering_key: 'k', idempotency_key: randomUUID(), delay_seconds: 0 }),
    ]);
    await s.collect(ofType('confirm'), 2);
    send(s, publishFrame(3, 'nowhere'));
    send(s, publishFrame(4, 'secret'));
    send(s, publishFrame(5, 'orders', 'x'.repeat(MAX_PAYLOAD_BYTES + 1)));
    sendMalformed(s, { type: 'publish', seq: 6, topic: 'orders', payload: 6 });
    const rejects = await s.collect(ofType('reject'), 4);
    expect(rejects.map((frame) => [frame.seq, frame.code]).sort()).toEqual([
      [3, 'topic_not_found'],
      [4, 'scope_required'],
      [5, 'payload_too_large'],
      [6, 'validation_failed'],
    ]);
    await s.close();
  });

  it('subscribing: subscribed, deliver, acked, extended, nacked, credit, unsubscribed', async () => {
    const s = await open();
    send(s, { type: 'subscribe', sub: 'b', queue: 'billing', prefetch: 1 });
    await s.next(ofType('subscribed'));
    const first = await s.next(ofType('deliver'));
    send(s, { type: 'ack', ids: [first.message.message_id], ref: 1 });
    await s.next(ofType('acked', (frame) => frame.ref === 1));
    const second = await s.next(ofType('deliver', (frame) => frame.message.message_id !== first.message.message_id));
    const id = second.message.message_id;
    send(s, { type: 'extend', id, seconds: 120, ref: 2 });
    await s.next(ofType('extended', (frame) => frame.ref === 2));
    send(s, { type: 'nack', id, requeue: true, delay_seconds: 0, reason: 'try again', ref: 3 });
    await s.next(ofType('nacked', (frame) => frame.ref === 3));
    await s.next(ofType('deliver', (frame) => frame.message.message_id === id && frame.message.retry_count === 1));
    await publishOne(mq, 'orders', 'three');
    send(s, { type: 'credit', sub: 'b', prefetch: 5 });
    await s.next(ofType('deliver', (frame) => frame.message.payload === 'three'));
    const held = s.frames.filter(ofType('deliver')).map((frame) => frame.message.message_id);
    send(s, { type: 'ack', ids: [...new Set(held), randomUUID()], ref: 4 });
    const acked = await s.next(ofType('acked', (frame) => frame.ref === 4));
    expect(acked.failed).toHaveLength(1);
    send(s, { type: 'unsubscribe', sub: 'b' });
    await s.next(ofType('unsubscribed'));
    await s.close();
  });

  it('extending many: extended per id, failed as the ack answers them; a hand back without a retry', async () => {
    await topology(mq, 'many', [{ name: 'many', ack_timeout_seconds: 60 }]);
    const manyKey = await mq.clientKey('extender', ['publish:many', 'consume:many']);
    const s = await open({ key: manyKey });
    await publishOne(mq, 'many', 'one');
    await publishOne(mq, 'many', 'two');
    send(s, { type: 'subscribe', sub: 'm', queue: 'many', prefetch: 2 });
    const held = (await s.collect(ofType('deliver'), 2)).map((frame) => frame.message.message_id);
    const stranger = randomUUID();
    const before = Date.now();
    send(s, { type: 'extend', ids: [...held, stranger], seconds: 300, ref: 1 });
    const answer = await s.next(ofType('extended', (frame) => frame.ref === 1));
    expect(answer.extended.map((lease: { message_id: string }) => lease.message_id).sort()).toEqual([...held].sort());
    for (const lease of answer.extended) expect(Date.parse(lease.lease_expires_at)).toBeGreaterThanOrEqual(before + 299_000);
    expect(answer.failed).toEqual([expect.objectContaining({ message_id: stranger, status: 404, code: 'message_not_found' })]);
    // The single-id form is answered as before.
    send(s, { type: 'extend', id: held[0], seconds: 120, ref: 2 });
    expect(await s.next(ofType('extended', (frame) => frame.ref === 2))).toMatchObject({ message_id: held[0] });
    sendMalformed(s, { type: 'extend', id: held[0], ids: [held[0]], seconds: 10, ref: 3 });
    sendMalformed(s, { type: 'extend', ids: [], seconds: 10, ref: 4 });
    sendMalformed(s, { type: 'extend', ids: Array.from({ length: 1001 }, () => randomUUID()), seconds: 10, ref: 5 });
    const refusals = await s.collect(
      ofType('error', (frame) => [3, 4, 5].includes(frame.ref)),
      3,
    );
    expect(refusals.map((frame) => frame.code)).toEqual(['validation_failed', 'validation_failed', 'validation_failed']);
    send(s, { type: 'nack', id: held[1], count_retry: false, delay_seconds: 0, ref: 7 });
    expect(await s.next(ofType('nacked', (frame) => frame.ref === 7))).toMatchObject({ message_id: held[1], status: 'PENDING' });
    await s.next(ofType('deliver', (frame) => frame.message.message_id === held[1] && frame.message.retry_count === 0));
    await s.close();
  });

  it('watching: watching, event, unwatched', async () => {
    const s = await open({ key: mq.adminKey });
    send(s, [
      { type: 'watch', sub: 'all' },
      { type: 'watch', sub: 'billing-only', queue: 'billing' },
    ]);
    await s.collect(ofType('watching'), 2);
    await publishOne(mq, 'orders', 'watched');
    await s.next(ofType('event', (frame) => frame.sub === 'billing-only'));
    await s.next(ofType('event', (frame) => frame.sub === 'all'));
    send(s, { type: 'unwatch', sub: 'all' });
    await s.next(ofType('unwatched'));
    await s.close();
  });

  it('refusals: error, for the message and for each kind of frame', async () => {
    const s = await open();
    s.ws.send('not json');
    s.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    s.ws.send('x'.repeat(s.welcome.limits.max_message_bytes + 1));
    sendMalformed(s, []);
    sendMalformed(s, 42);
    sendMalformed(s, { type: 'teleport', ref: 5 });
    sendMalformed(s, { type: 'subscribe', sub: 'bad name!', queue: 'billing', prefetch: 1 });
    send(s, { type: 'subscribe', sub: 'ghost', queue: 'ghost', prefetch: 1 });
    send(s, { type: 'subscribe', sub: 'secret', queue: 'secret', prefetch: 1 });
    send(s, { type: 'credit', sub: 'nobody', prefetch: 1 });
    send(s, { type: 'unsubscribe', sub: 'nobody' });
    send(s, { type: 'nack', id: randomUUID(), ref: 6 });
    send(s, { type: 'extend', id: randomUUID(), seconds: 10, ref: 7 });
    send(s, { type: 'watch', sub: 'peek' });
    send(s, { type: 'unwatch', sub: 'nobody' });
    const errors = await s.collect(ofType('error'), 15);
    const codes = errors.map((frame) => frame.code);
    for (const code of ['validation_failed', 'payload_too_large', 'queue_not_found', 'scope_required', 'route_not_found']) expect(codes).toContain(code);
    expect(errors.filter((frame) => frame.ref === 6 || frame.ref === 7)).toHaveLength(2);
    expect(errors.find((frame) => frame.sub === 'peek')).toMatchObject({ status: 403, scope: 'view' });
    await s.close();
  });

  it('subscription_ended: the queue was deleted', async () => {
    const s = await open();
    send(s, { type: 'subscribe', sub: 'd', queue: 'doomed', prefetch: 1 });
    await s.next(ofType('subscribed'));
    expect((await mq.del('/api/v1/queues/doomed', mq.adminKey)).status).toBe(204);
    expect(await s.next(ofType('subscription_ended'))).toMatchObject({ sub: 'd', status: 404, code: 'queue_not_found' });
    await s.close();
  });

  it('resume: welcome resumed, and what was held delivered again', async () => {
    await publishOne(mq, 'orders', 'resumed');
    const s = await open({ query: 'instance=resumer' });
    send(s, { type: 'subscribe', sub: 'r', queue: 'billing', prefetch: 1 });
    const delivered = await s.next(ofType('deliver'));
    s.ws.terminate();
    const again = await open({ query: `instance=resumer&resume=${s.welcome.resume_token}` });
    expect(again.welcome).toMatchObject({ resumed: true, stream_id: s.welcome.stream_id });
    const resent = await again.next(ofType('deliver', (frame) => frame.resent === true));
    expect(resent.message.message_id).toBe(delivered.message.message_id);
    send(again, { type: 'ack', ids: [resent.message.message_id] });
    await again.close();
  });

  it('closes with the codes it documents', async () => {
    const violator = await open();
    for (let i = 0; i < 25; i += 1) sendMalformed(violator, { type: 'nonsense' });
    expect((await violator.closed).code).toBe(4400);
    const oversized = await open();
    oversized.ws.send('x'.repeat(2 * oversized.welcome.limits.max_message_bytes + 1));
    expect((await oversized.closed).code).toBe(1009);
    const revokedKey = await mq.clientKey('revoked', ['publish:orders']);
    const revoked = await open({ key: revokedKey });
    expect((await mq.del('/api/v1/clients/revoked', mq.adminKey)).status).toBe(204);
    expect((await revoked.closed).code).toBe(1008);
    const normal = await open();
    normal.ws.close(1000);
    expect((await normal.closed).code).toBe(1000);
    expect([...closes].filter((code) => !closeCodes().includes(code))).toEqual([]);
    for (const code of [1000, 1008, 1009, 4400]) expect(closes).toContain(code);
  });

  it('refuses handshakes as it documents, with the HTTP error body', async () => {
    // Each refusal is caught as soon as it is made: one that comes before the loop reaches it is not left unhandled.
    const refusalOf = (opening: Promise<unknown>) =>
      opening.then(
        () => expect.unreachable('the handshake was accepted'),
        (error: { status: number; body: string }) => error,
      );
    const refusals = [
      refusalOf(openStream(mq, { key, protocols: [] })),
      refusalOf(openStream(mq, { key: 'mq_not_a_key' })),
      refusalOf(openStream(mq, { key, query: 'resume=short' })),
      refusalOf(openStream(mq, { key, query: 'instance=%20spaces%20' })),
    ];
    const statuses: number[] = [];
    for (const error of await Promise.all(refusals)) {
      assertRefusal(error.status, JSON.parse(error.body));
      statuses.push(error.status);
    }
    expect(statuses).toEqual([400, 401, 400, 400]);
  });

  it('sent and received every frame type the document has', () => {
    expect(seen('receive').sort()).toEqual(frameTypes('receive').sort());
    expect(seen('send').sort()).toEqual(frameTypes('send').sort());
  });
});
