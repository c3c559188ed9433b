import { describe, expect, it } from 'vitest';
import type Joi from 'joi';
import { quickFrame } from '../../src/stream/quickFrames.js';
import { FRAME_SCHEMAS } from '../../src/stream/frames.js';

const UUID = '01a23293-1e9c-72ef-97a2-3e9859b7f6e9';
const valid = [
  { type: 'publish', seq: 1, topic: 'orders', payload: 'x' },
  {
    type: 'publish',
    seq: 9007199254740991,
    topic: 'a.b_c-1',
    payload: '',
    headers: { kind: 'v', '': '' },
    delay_seconds: 900,
    ordering_key: 'k',
    idempotency_key: 'i',
  },
  { type: 'ack', ids: [UUID], ref: 0 },
  { type: 'ack', ids: [UUID.toUpperCase(), UUID] },
];
/** Each is one step off a valid frame: the quick check must leave it to joi. */
const edges: Record<string, unknown>[] = [
  { type: 'publish', seq: 0, topic: 'orders', payload: 'x' },
  { type: 'publish', seq: 1.5, topic: 'orders', payload: 'x' },
  { type: 'publish', seq: '1', topic: 'orders', payload: 'x' },
  { type: 'publish', seq: 2 ** 53, topic: 'orders', payload: 'x' },
  { type: 'publish', seq: 1, topic: 'Orders', payload: 'x' },
  { type: 'publish', seq: 1, topic: '..', payload: 'x' },
  { type: 'publish', seq: 1, topic: 'a'.repeat(101), payload: 'x' },
  { type: 'publish', seq: 1, topic: 'orders', payload: 'a\u0000b' },
  { type: 'publish', seq: 1, topic: 'orders', payload: '\ud800' },
  { type: 'publish', seq: 1, topic: 'orders', payload: 5 },
  { type: 'publish', seq: 1, topic: 'orders', payload: 'x', extra: 1 },
  { type: 'publish', seq: 1, topic: 'orders', payload: 'x', delay_seconds: 901 },
  { type: 'publish', seq: 1, topic: 'orders', payload: 'x', delay_seconds: -1 },
  { type: 'publish', seq: 1, topic: 'orders', payload: 'x', ordering_key: '' },
  { type: 'publish', seq: 1, topic: 'orders', payload: 'x', idempotency_key: 'k'.repeat(201) },
  { type: 'publish', seq: 1, topic: 'orders', payload: 'x', headers: { 'MiniQueue-Replayed': 'x' } },
  { type: 'publish', seq: 1, topic: 'orders', payload: 'x', headers: { h: 'v'.repeat(4097) } },
  { type: 'publish', seq: 1, topic: 'orders', payload: 'x', headers: { ['n'.repeat(201)]: 'v' } },
  { type: 'publish', seq: 1, topic: 'orders', payload: 'x', headers: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`h${i}`, 'v'])) },
  { type: 'publish', seq: 1, topic: 'orders', payload: 'x', headers: ['v'] },
  { type: 'publish', seq: 1, topic: 'orders', payload: 'x', headers: { h: 1 } },
  { type: 'ack', ids: [] },
  { type: 'ack', ids: ['not-a-uuid'] },
  { type: 'ack', ids: [UUID], ref: -1 },
  { type: 'ack', ids: [UUID], extra: true },
  { type: 'ack', ids: Array.from({ length: 1001 }, () => UUID) },
];

describe('the quick frame checks', () => {
  it('accept the common publish and ack frames', () => {
    for (const frame of valid) expect(quickFrame(frame), JSON.stringify(frame)).toEqual(frame);
  });

  it('accept nothing joi refuses, and nothing joi would change', () => {
    let accepted = 0;
    for (const frame of [...valid, ...edges]) {
      const quick = quickFrame(frame);
      if (!quick) continue;
      accepted += 1;
      const schema = FRAME_SCHEMAS[frame.type as keyof typeof FRAME_SCHEMAS] as Joi.ObjectSchema;
      const { value, error } = schema.validate(frame);
      expect(error, JSON.stringify(frame).slice(0, 200)).toBeUndefined();
      expect(value).toEqual(quick);
    }
    expect(accepted).toBe(valid.length);
  });
});
