import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { publishOne, topology } from '../helpers/fixtures.js';
import { eventually } from '../helpers/eventually.js';
import { assertMessage, type Direction } from '../helpers/streamFrames.js';
import { openStream, publishFrame, type TestStream } from './support.js';

/**
 * The stream's flow and closing rules, case by case from asyncapi.yaml: `credit` 0 pauses
 * deliveries (operations.credit), an unsubscribed subscription's messages stay held past the
 * stream's close (operations.unsubscribe), a `sub` in use is refused (operations.subscribe), every
 * refused frame is answered before the 21st closes the stream (Bad input), and nothing sent after
 * the frame that closes a stream is applied. Every frame sent and received goes through the
 * document's schemas.
 */
let mq: TestBroker;
let key: string;
const streams: TestStream[] = [];
const offContract: string[] = [];

beforeAll(async () => {
  mq = await startTestBroker({ listen: true, env: { MINIQUEUE_STREAM_RESUME_GRACE_MS: '2000' } });
  await topology(mq, 'paused', [{ name: 'paused', ack_timeout_seconds: 60 }]);
  await topology(mq, 'kept', [{ name: 'kept', ack_timeout_seconds: 60 }]);
  await topology(mq, 'released', [{ name: 'released', ack_timeout_seconds: 60 }]);
  await topology(mq, 'twice', [{ name: 'twice', ack_timeout_seconds: 60 }]);
  await topology(mq, 'after-close', [{ name: 'after-close' }]);
  await topology(mq, 'in-flight', [{ name: 'in-flight', ack_timeout_seconds: 60 }]);
  key = await mq.clientKey('protocol', ['publish:after-close', 'consume:paused', 'consume:in-flight', 'consume:kept', 'consume:released', 'consume:twice']);
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

async function open(instance: string): Promise<TestStream> {
  const stream = await openStream(mq, { key, query: `instance=${instance}`, onMessage: (data) => check('send', data) });
  streams.push(stream);
  return stream;
}

function send(stream: TestStream, value: object | object[]): void {
  check('receive', value);
  stream.send(value);
}

const ofType =
  (type: string, extra: (frame: any) => boolean = () => true) =>
  (frame: any) =>
    frame.type === type && extra(frame);

/** A frame every stream answers (an ack of an id nobody holds, with a `ref`): once answered, the frames before it were applied. */
async function applied(stream: TestStream, ref: number): Promise<void> {
  send(stream, { type: 'ack', ids: ['00000000-0000-4000-8000-000000000000'], ref });
  await stream.next(ofType('acked', (frame) => frame.ref === ref));
}

/** Claims over HTTP, as another consumer of the same queue, waiting up to `waitSeconds`. */
async function receiveElsewhere(queue: string, waitSeconds: number): Promise<any[]> {
  const response = await mq.post(`/api/v1/queues/${queue}/receive`, { max_messages: 10, wait_seconds: waitSeconds }, mq.adminKey, {
    'miniqueue-instance': 'elsewhere',
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.messages;
}

const statusOfMessage = async (id: string) =>
  (await mq.pool.query<{ status: string; holder: string | null }>('SELECT status, holder FROM message WHERE id = $1', [id])).rows[0];

/** A malformed frame: an unknown `type`, which the document refuses (and the broker answers `400 validation_failed`). */
const badFrame = (ref: number) => ({ type: 'nonsense', ref });

/**
 * Sends one WebSocket message of these frames as they are: each the document allows (a publish)
 * or refuses (a bad frame), checked here against asyncapi.yaml either way.
 */
function sendRaw(stream: TestStream, frames: object | object[]): void {
  for (const frame of Array.isArray(frames) ? frames : [frames]) {
    if ((frame as { type: string }).type === 'nonsense') expect(() => assertMessage('receive', frame)).toThrow();
    else check('receive', frame);
  }
  stream.ws.send(JSON.stringify(frames));
}

describe('/ws/v1/stream as asyncapi.yaml describes its flow', () => {
  it('credit 0 pauses deliveries of a subscription that holds nothing: a publish after it goes to another consumer', async () => {
    const s = await open('pauser');
    send(s, { type: 'subscribe', sub: 'p', queue: 'paused', prefetch: 1 });
    await s.next(ofType('subscribed'));
    send(s, { type: 'credit', sub: 'p', prefetch: 0 });
    await applied(s, 1);
    const [id] = await publishOne(mq, 'paused', 'while paused');
    const elsewhere = await receiveElsewhere('paused', 5);
    expect(
      elsewhere.map((message) => message.message_id),
      'the message published while the subscription was paused is another consumer’s',
    ).toEqual([id]);
    expect(s.frames.filter(ofType('deliver'))).toEqual([]);
    expect((await mq.post('/api/v1/messages/ack', { message_ids: [id] }, mq.adminKey, { 'miniqueue-instance': 'elsewhere' })).status).toBe(200);

    // Credit returns: deliveries go on.
    send(s, { type: 'credit', sub: 'p', prefetch: 1 });
    await publishOne(mq, 'paused', 'after the pause');
    const delivered = await s.next(ofType('deliver'));
    expect(delivered.message.payload).toBe('after the pause');
    await s.close();
  });

  it('credit 0 while a claim statement runs: what it claims goes back to PENDING, retry count unchanged, and is not delivered', async () => {
    const [id] = await publishOne(mq, 'in-flight', 'claimed as credit 0 arrives');
    const s = await open('in-flight');
    // The claim is held in the middle of its statement: the message table is locked until the test lets go.
    const lock = await mq.pool.connect();
    try {
      await lock.query('BEGIN');
      await lock.query('LOCK TABLE message IN ACCESS EXCLUSIVE MODE');
      send(s, { type: 'subscribe', sub: 'f', queue: 'in-flight', prefetch: 1 });
      await s.next(ofType('subscribed'));
      await eventually(
        async () =>
          (
            await mq.pool.query<{ n: number }>(
              "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%jsonb_to_recordset%' AND query LIKE '%picked%'",
            )
          ).rows[0].n > 0,
        'the claim statement waiting on the lock',
      );
      send(s, { type: 'credit', sub: 'f', prefetch: 0 });
      // Answered at once (no statement), after the credit was applied.
      send(s, { type: 'unsubscribe', sub: 'nobody' });
      await s.next(ofType('error', (frame) => frame.sub === 'nobody'));
      await lock.query('COMMIT');
    } finally {
      lock.release();
    }
    // The paused claim is done: it delivered the message, or it is back to PENDING with no claim under way.
    const claimRunning = async () =>
      (
        await mq.pool.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%jsonb_to_recordset%' AND pid <> pg_backend_pid()",
        )
      ).rows[0].n > 0;
    await eventually(
      async () => s.frames.some(ofType('deliver')) || ((await statusOfMessage(id)).status === 'PENDING' && !(await claimRunning())),
      'the paused claim done',
    );
    const elsewhere = await receiveElsewhere('in-flight', 5);
    expect(
      elsewhere.map((message) => [message.message_id, message.retry_count]),
      'the message the paused claim took is another consumer’s, its retry count unchanged',
    ).toEqual([[id, 0]]);
    expect(s.frames.filter(ofType('deliver'))).toEqual([]);
    await s.close();
  });

  it('unsubscribe: what the subscription held stays held after the stream closes; the rest is released', async () => {
    const [keptId] = await publishOne(mq, 'kept', 'kept');
    const [releasedId] = await publishOne(mq, 'released', 'released');
    const s = await open('unsubscriber');
    send(s, [
      { type: 'subscribe', sub: 'k', queue: 'kept', prefetch: 1 },
      { type: 'subscribe', sub: 'r', queue: 'released', prefetch: 1 },
    ]);
    await s.collect(ofType('deliver'), 2);
    send(s, { type: 'unsubscribe', sub: 'k' });
    await s.next(ofType('unsubscribed'));
    s.ws.close(1000);
    await s.closed;
    // The close releases what the live subscription held…
    await eventually(async () => (await statusOfMessage(releasedId)).status === 'PENDING', 'the live subscription’s message released');
    // …and not what the unsubscribed one held: it is the holder's until acked, nacked or its lease ends.
    expect(await statusOfMessage(keptId), 'the unsubscribed subscription’s message stays held').toMatchObject({ status: 'UNACKED' });
    const acked = await mq.post('/api/v1/messages/ack', { message_ids: [keptId] }, key, { 'miniqueue-instance': 'unsubscriber' });
    expect(acked.status).toBe(200);
    expect(acked.body.acked).toEqual([keptId]);
  });

  it('a second subscribe with a sub in use is refused 400 validation_failed, and the first keeps its prefetch', async () => {
    const s = await open('twice');
    send(s, { type: 'subscribe', sub: 't', queue: 'twice', prefetch: 1 });
    await s.next(ofType('subscribed'));
    send(s, { type: 'subscribe', sub: 't', queue: 'twice', prefetch: 5 });
    const refused = await s.next(ofType('error', (frame) => frame.sub === 't'));
    expect(refused).toMatchObject({ status: 400, code: 'validation_failed', sub: 't' });
    expect(refused.errors.map((error: { field: string }) => error.field)).toEqual(['sub']);
    expect(s.frames.filter(ofType('subscribed'))).toHaveLength(1);
    // Its window is still 1: of two messages, it takes one and another consumer the other.
    await publishOne(mq, 'twice', 'one');
    await publishOne(mq, 'twice', 'two');
    await s.next(ofType('deliver'));
    expect(await receiveElsewhere('twice', 5)).toHaveLength(1);
    expect(s.frames.filter(ofType('deliver'))).toHaveLength(1);
    await s.close();
  });

  it('21 refused frames in one message: each answered with its error, then the close (4400)', async () => {
    const s = await open('violator-one');
    send(s, { type: 'subscribe', sub: 'v', queue: 'paused', prefetch: 1 });
    await s.next(ofType('subscribed'));
    sendRaw(
      s,
      Array.from({ length: 21 }, (_, i) => badFrame(i + 1)),
    );
    expect((await s.closed).code).toBe(4400);
    const errors = s.frames.filter(ofType('error'));
    expect(errors.map((frame) => frame.ref)).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
    for (const error of errors) expect(error).toMatchObject({ status: 400, code: 'validation_failed' });
  });

  it('21 refused frames in as many messages, in one burst: each answered with its error, then the close (4400)', async () => {
    const s = await open('violator-many');
    for (let i = 1; i <= 21; i += 1) sendRaw(s, badFrame(i));
    expect((await s.closed).code).toBe(4400);
    expect(s.frames.filter(ofType('error')).map((frame) => frame.ref)).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
  });

  it('frames after the one that closes the stream are not applied: 21 bad frames then 50 publishes, in one message or in many', async () => {
    const stored = async () => (await mq.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM message WHERE queue_name = 'after-close'")).rows[0].n;
    const inOne = await open('after-one');
    sendRaw(inOne, [...Array.from({ length: 21 }, (_, i) => badFrame(i + 1)), ...Array.from({ length: 50 }, (_, i) => publishFrame(i + 1, 'after-close'))]);
    expect((await inOne.closed).code).toBe(4400);
    const inMany = await open('after-many');
    for (let i = 1; i <= 21; i += 1) sendRaw(inMany, badFrame(i));
    for (let seq = 1; seq <= 50; seq += 1) sendRaw(inMany, publishFrame(seq, 'after-close'));
    expect((await inMany.closed).code).toBe(4400);
    // A publish sent after both closes, on another stream, is stored: once it is, the others would have been too.
    const witness = await open('witness');
    send(witness, publishFrame(1, 'after-close', 'witness'));
    await witness.next(ofType('confirm'));
    expect(await stored(), 'only the witness’s publish is stored').toBe(1);
    expect([...inOne.frames, ...inMany.frames].filter(ofType('confirm'))).toEqual([]);
    await witness.close();
  });
});

describe('/ws/v1/stream: frames waiting for the rate limit after the one that closes the stream', () => {
  // Few tokens that come back quickly: the messages after the first few wait in the backlog, and
  // are read from it a token at a time, each a millisecond after the one before.
  let limited: TestBroker;
  beforeAll(async () => {
    limited = await startTestBroker({ listen: true, env: { MINIQUEUE_RATE_LIMIT_PER_SECOND: '1000', MINIQUEUE_RATE_LIMIT_BURST: '3' } });
    await topology(limited, 'backlog', [{ name: 'backlog' }]);
  });
  afterAll(() => limited.stop());

  it('are not applied: the publishes behind the closing frame in the backlog are not stored', async () => {
    const s = await openStream(limited, { key: limited.adminKey, onMessage: (data) => check('send', data) });
    streams.push(s);
    sendRaw(
      s,
      Array.from({ length: 20 }, (_, i) => badFrame(i + 1)),
    );
    sendRaw(s, badFrame(21));
    for (let seq = 1; seq <= 50; seq += 1) sendRaw(s, publishFrame(seq, 'backlog'));
    expect((await s.closed).code).toBe(4400);
    // A publish after the close is stored after anything the closed stream would have stored.
    await publishOne(limited, 'backlog', 'witness');
    const stored = (await limited.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM message WHERE queue_name = 'backlog'")).rows[0].n;
    expect(stored, 'publishes stored, the witness’s included').toBe(1);
    expect(s.frames.filter(ofType('error')).map((frame) => frame.ref)).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
  });
});
