import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConflictError, ConnectionError, NotFoundError, PayloadTooLargeError, RateLimitedError, UnavailableError } from '../../src/index.js';
import { retryPolicy } from '../../src/http/retryPolicy.js';
import type { ClientFrame, PublishFrame } from '../../src/stream/frames.js';
import { Publisher } from '../../src/stream/publisher.js';
import { Settler } from '../../src/stream/settler.js';

describe('publish sequence bookkeeping', () => {
  it('numbers publishes, resolves each on its own confirm in any order, rejects with the typed error', async () => {
    const sent: PublishFrame[] = [];
    const publisher = new Publisher((frame) => sent.push(frame));
    const first = publisher.publish({ topic: 't', payload: 'a', idempotency_key: 'k1' });
    const second = publisher.publish({ topic: 't', payload: 'b', idempotency_key: 'k2' });
    const third = publisher.publish({ topic: 't', payload: 'c' });
    expect(sent.map((frame) => frame.seq)).toEqual([1, 2, 3]);
    publisher.answer({ type: 'confirm', seq: 2, message_ids: ['m2'], queues: ['q'], duplicate: false });
    publisher.answer({ type: 'reject', seq: 3, status: 413, code: 'payload_too_large', message: 'too big' });
    publisher.answer({ type: 'confirm', seq: 1, message_ids: ['m1'], queues: ['q'], duplicate: true });
    await expect(second).resolves.toEqual({ message_ids: ['m2'], queues: ['q'], duplicate: false });
    await expect(first).resolves.toMatchObject({ duplicate: true });
    const error = await third.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PayloadTooLargeError);
    expect(error).toMatchObject({ status: 413, code: 'payload_too_large', message: 'too big' });
    expect(publisher.size).toBe(0);
  });

  it('resends only the unconfirmed, oldest first, with their same seq and key', () => {
    const sent: PublishFrame[] = [];
    const publisher = new Publisher((frame) => sent.push(frame));
    for (let i = 1; i <= 5; i++) void publisher.publish({ topic: 't', payload: `${i}`, idempotency_key: `k${i}` }).catch(() => undefined);
    publisher.answer({ type: 'confirm', seq: 2, message_ids: ['m'], queues: [], duplicate: false });
    publisher.answer({ type: 'confirm', seq: 4, message_ids: ['m'], queues: [], duplicate: false });
    sent.length = 0;
    publisher.resend();
    expect(sent.map((frame) => [frame.seq, frame.idempotency_key])).toEqual([
      [1, 'k1'],
      [3, 'k3'],
      [5, 'k5'],
    ]);
    void publisher.publish({ topic: 't', payload: '6' });
    expect(sent.at(-1)!.seq).toBe(6);
  });

  it('an aborted publish stops waiting; failAll ends the rest', async () => {
    const publisher = new Publisher(() => undefined);
    const controller = new AbortController();
    const aborted = publisher.publish({ topic: 't', payload: 'a' }, controller.signal);
    const other = publisher.publish({ topic: 't', payload: 'b' });
    controller.abort(new Error('changed my mind'));
    await expect(aborted).rejects.toThrow('changed my mind');
    expect(publisher.size).toBe(1);
    publisher.failAll(new ConnectionError({ status: 0, message: 'gone' }));
    await expect(other).rejects.toBeInstanceOf(ConnectionError);
  });
});

describe('publishes refused for now (429, 503)', () => {
  afterEach(() => vi.useRealTimers());
  const unavailable = (seq: number, retryAfterSeconds?: number) =>
    ({
      type: 'reject',
      seq,
      status: 503,
      code: 'database_unavailable',
      message: 'Database unavailable',
      errors: null,
      retry_after_seconds: retryAfterSeconds,
    }) as const;

  it('are sent again with the same seq and key after retry_after_seconds, and resolve on the confirm', async () => {
    vi.useFakeTimers();
    const sent: PublishFrame[] = [];
    const publisher = new Publisher((frame) => sent.push(frame));
    const published = publisher.publish({ topic: 't', payload: 'a', idempotency_key: 'k1' });
    publisher.answer(unavailable(1, 1));
    await vi.advanceTimersByTimeAsync(999);
    expect(sent).toHaveLength(1);
    publisher.resend(); // a stream reopened meanwhile: the waiting publish keeps its turn
    expect(sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent.map((frame) => [frame.seq, frame.idempotency_key])).toEqual([
      [1, 'k1'],
      [1, 'k1'],
    ]);
    publisher.answer({ type: 'confirm', seq: 1, message_ids: ['m1'], queues: ['q'], duplicate: false });
    await expect(published).resolves.toMatchObject({ message_ids: ['m1'] });
  });

  it('without retry_after_seconds back off as the policy says; an error frame naming the seq counts too', async () => {
    vi.useFakeTimers();
    const sent: PublishFrame[] = [];
    const publisher = new Publisher(
      (frame) => sent.push(frame),
      retryPolicy({ baseDelayMs: 100 }),
      () => 0.5,
    );
    void publisher.publish({ topic: 't', payload: 'a' });
    publisher.answer({ type: 'error', seq: 1, status: 429, code: 'rate_limited', message: 'slow down' });
    await vi.advanceTimersByTimeAsync(49);
    expect(sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toHaveLength(2);
  });

  it('reject with the typed error once the attempts are used up, or when the wait is longer than the policy takes', async () => {
    vi.useFakeTimers();
    const publisher = new Publisher(() => undefined, retryPolicy({ attempts: 2, maxRetryAfterMs: 5000 }));
    const twice = publisher.publish({ topic: 't', payload: 'a' });
    const caught = twice.catch((error: unknown) => error);
    publisher.answer(unavailable(1, 1));
    await vi.advanceTimersByTimeAsync(1000);
    publisher.answer(unavailable(1, 1));
    const error = await caught;
    expect(error).toBeInstanceOf(UnavailableError);
    expect(error).toMatchObject({ status: 503, code: 'database_unavailable', attempts: 2, retryAfterMs: 1000 });
    const tooLong = publisher.publish({ topic: 't', payload: 'b' });
    publisher.answer({ type: 'reject', seq: 2, status: 429, code: 'rate_limited', message: 'later', retry_after_seconds: 60 });
    await expect(tooLong).rejects.toBeInstanceOf(RateLimitedError);
    await expect(tooLong).rejects.toMatchObject({ retryAfterMs: 60_000, attempts: 1 });
    const conflict = publisher.publish({ topic: 't', payload: 'c' }, undefined, retryPolicy({ attempts: 4 }));
    publisher.answer({ type: 'reject', seq: 3, status: 409, code: 'idempotency_conflict', message: 'other content' });
    await expect(conflict).rejects.toBeInstanceOf(ConflictError);
    expect(publisher.size).toBe(0);
  });

  it('an abort while waiting to be sent again ends the wait', async () => {
    vi.useFakeTimers();
    const sent: PublishFrame[] = [];
    const publisher = new Publisher((frame) => sent.push(frame));
    const controller = new AbortController();
    const published = publisher.publish({ topic: 't', payload: 'a' }, controller.signal);
    publisher.answer(unavailable(1, 1));
    controller.abort(new Error('enough'));
    await expect(published).rejects.toThrow('enough');
    await vi.advanceTimersByTimeAsync(2000);
    expect(sent).toHaveLength(1);
  });
});

describe('settling by frame', () => {
  function settler() {
    const sent: ClientFrame[] = [];
    const deferred: Array<() => void> = [];
    const instance = new Settler({ send: (frame) => (sent.push(frame), true), beforeFlush: (prepare) => deferred.push(prepare) });
    const endTurn = () => deferred.splice(0).forEach((prepare) => prepare());
    return { instance, sent, endTurn };
  }

  it('coalesces the acks of one turn into one frame with a ref, and answers each id', async () => {
    const { instance, sent, endTurn } = settler();
    const acks = ['a', 'b', 'c'].map((id) => instance.ack(id));
    endTurn();
    expect(sent).toEqual([{ type: 'ack', ids: ['a', 'b', 'c'], ref: 1 }]);
    instance.answer({
      type: 'acked',
      ref: 1,
      acked: ['a', 'c'],
      failed: [{ message_id: 'b', status: 409, code: 'lease_lost', message: 'lost' }],
    });
    await expect(acks[0]).resolves.toEqual({ message_id: 'a', status: 'ACKED' });
    await expect(acks[2]).resolves.toEqual({ message_id: 'c', status: 'ACKED' });
    await expect(acks[1]).rejects.toBeInstanceOf(ConflictError);
    expect(instance.size).toBe(0);
  });

  it('splits more than 1,000 acks of a turn into frames of at most 1,000 ids', () => {
    const { instance, sent, endTurn } = settler();
    for (let i = 0; i < 2100; i++) void instance.ack(`m${i}`).catch(() => undefined);
    endTurn();
    expect(sent.map((frame) => (frame as { ids: string[] }).ids.length)).toEqual([1000, 1000, 100]);
    expect(new Set(sent.map((frame) => (frame as { ref: number }).ref)).size).toBe(3);
  });

  it('coalesces the extends of one turn into one frame per length, and answers each id', async () => {
    const { instance, sent, endTurn } = settler();
    const round = ['a', 'b', 'c'].map((id) => instance.extend(id, 30));
    const longer = instance.extend('d', 600);
    expect(sent).toEqual([]);
    endTurn();
    expect(sent).toEqual([
      { type: 'extend', ids: ['a', 'b', 'c'], seconds: 30, ref: 1 },
      { type: 'extend', ids: ['d'], seconds: 600, ref: 2 },
    ]);
    instance.answer({
      type: 'extended',
      ref: 1,
      extended: [
        { message_id: 'a', lease_expires_at: '2026-12-04T01:00:30.000Z' },
        { message_id: 'c', lease_expires_at: '2026-12-04T01:00:30.000Z' },
      ],
      failed: [{ message_id: 'b', status: 409, code: 'lease_lost', message: 'lost' }],
    });
    await expect(round[0]).resolves.toEqual({ message_id: 'a', lease_expires_at: new Date('2026-12-04T01:00:30.000Z') });
    await expect(round[2]).resolves.toMatchObject({ message_id: 'c' });
    await expect(round[1]).rejects.toBeInstanceOf(ConflictError);
    instance.answer({ type: 'error', ref: 2, status: 404, code: 'message_not_found', message: 'no such message' });
    await expect(longer).rejects.toBeInstanceOf(NotFoundError);
    expect(instance.size).toBe(0);
  });

  it('answers nack and extend by ref, errors included, and resends what is unanswered', async () => {
    const { instance, sent, endTurn } = settler();
    const nack = instance.nack('m1', { requeue: false, reason: 'bad' });
    const extend = instance.extend('m2', 30);
    endTurn();
    expect(sent).toEqual([
      { type: 'nack', id: 'm1', requeue: false, reason: 'bad', delay_seconds: undefined, ref: 1 },
      { type: 'extend', ids: ['m2'], seconds: 30, ref: 2 },
    ]);
    sent.length = 0;
    instance.resend();
    expect(sent.map((frame) => (frame as { ref: number }).ref)).toEqual([1, 2]);
    instance.answer({ type: 'nacked', ref: 1, message_id: 'm1', status: 'DEAD' });
    instance.answer({ type: 'error', ref: 2, status: 404, code: 'message_not_found', message: 'no such message' });
    await expect(nack).resolves.toEqual({ message_id: 'm1', status: 'DEAD' });
    await expect(extend).rejects.toBeInstanceOf(NotFoundError);
  });

  it('sends a settle refused for now (503, 429) again with its ref after retry_after_seconds, as HTTP retries it', async () => {
    vi.useFakeTimers();
    try {
      const sent: ClientFrame[] = [];
      const instance = new Settler({ send: (frame) => (sent.push(frame), true), beforeFlush: (prepare) => prepare() }, retryPolicy({ attempts: 2 }));
      const nack = instance.nack('m1', { requeue: true });
      const busy = { type: 'error', ref: 1, status: 503, code: 'database_unavailable', message: 'Database unavailable', retry_after_seconds: 1 } as const;
      instance.answer(busy);
      instance.resend(); // reopened meanwhile: the waiting nack keeps its turn
      expect(sent).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1000);
      expect(sent.map((frame) => [frame.type, (frame as { ref: number }).ref])).toEqual([
        ['nack', 1],
        ['nack', 1],
      ]);
      instance.answer(busy); // the second refusal uses up the two attempts
      await expect(nack).rejects.toMatchObject({ status: 503, code: 'database_unavailable' });
      expect(instance.size).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
