import { describe, expect, it } from 'vitest';
import { ConflictError, ConnectionError, NotFoundError, PayloadTooLargeError } from '../../src/index.js';
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
    expect(sent.map((frame) => [frame.seq, frame.idempotency_key])).toEqual([[1, 'k1'], [3, 'k3'], [5, 'k5']]);
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

  it('answers nack and extend by ref, errors included, and resends what is unanswered', async () => {
    const { instance, sent } = settler();
    const nack = instance.nack('m1', { requeue: false, reason: 'bad' });
    const extend = instance.extend('m2', 30);
    expect(sent).toEqual([
      { type: 'nack', id: 'm1', requeue: false, reason: 'bad', delay_seconds: undefined, ref: 1 },
      { type: 'extend', id: 'm2', seconds: 30, ref: 2 },
    ]);
    sent.length = 0;
    instance.resend();
    expect(sent.map((frame) => (frame as { ref: number }).ref)).toEqual([1, 2]);
    instance.answer({ type: 'nacked', ref: 1, message_id: 'm1', status: 'DEAD' });
    instance.answer({ type: 'error', ref: 2, status: 404, code: 'message_not_found', message: 'no such message' });
    await expect(nack).resolves.toEqual({ message_id: 'm1', status: 'DEAD' });
    await expect(extend).rejects.toBeInstanceOf(NotFoundError);
  });
});
