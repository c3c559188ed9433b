import { describe, expect, it } from 'vitest';
import { FrameBatcher, utf8Length } from '../../src/stream/batcher.js';
import { decodeFrames, type ClientFrame } from '../../src/stream/frames.js';

/** A batcher whose "end of turn" the test decides. */
function manual(maxBytes?: number) {
  const written: string[] = [];
  let pending: (() => void) | undefined;
  const batcher = new FrameBatcher(
    (message) => written.push(message),
    (flush) => (pending = flush),
    maxBytes,
  );
  return { batcher, written, endTurn: () => pending?.() };
}

const publish = (seq: number, payload = 'x'): ClientFrame => ({ type: 'publish', seq, topic: 't', payload });

describe('frame batching', () => {
  it('writes the frames of one turn as one JSON array, a lone frame as itself', () => {
    const { batcher, written, endTurn } = manual();
    batcher.push(publish(1));
    batcher.push(publish(2));
    batcher.push(publish(3));
    expect(written).toEqual([]);
    endTurn();
    expect(written).toHaveLength(1);
    expect(JSON.parse(written[0]).map((frame: { seq: number }) => frame.seq)).toEqual([1, 2, 3]);
    batcher.push(publish(4));
    endTurn();
    expect(JSON.parse(written[1])).toEqual(publish(4));
  });

  it('never puts more than 1,000 frames in one message', () => {
    const { batcher, written, endTurn } = manual();
    for (let seq = 1; seq <= 2500; seq++) batcher.push(publish(seq));
    endTurn();
    expect(written.map((message) => JSON.parse(message).length)).toEqual([1000, 1000, 500]);
  });

  it('splits by bytes, counting UTF-8, and sends an oversized frame alone', () => {
    const { batcher, written, endTurn } = manual(1000);
    batcher.push(publish(1, 'é'.repeat(300))); // 600 bytes of payload
    batcher.push(publish(2, 'é'.repeat(300)));
    batcher.push(publish(3, 'x'.repeat(2000)));
    batcher.push(publish(4));
    endTurn();
    expect(written.map((message) => decodeFrames(message).length)).toEqual([1, 1, 1, 1]);
    for (const message of written) if (!message.includes('xxxx')) expect(utf8Length(message)).toBeLessThanOrEqual(1000);
  });

  it('runs deferred work first, so frames it makes join the same message', () => {
    const { batcher, written, endTurn } = manual();
    batcher.defer(() => batcher.push({ type: 'ack', ids: ['a', 'b'], ref: 1 }));
    batcher.push(publish(1));
    endTurn();
    expect(written).toHaveLength(1);
    expect(JSON.parse(written[0]).map((frame: { type: string }) => frame.type)).toEqual(['publish', 'ack']);
  });

  it('counts UTF-8 bytes as the encoder does', () => {
    for (const text of ['', 'abc', 'é', '€', '😀', 'a😀é€']) expect(utf8Length(text)).toBe(new TextEncoder().encode(text).length);
  });

  it('reads one frame or an array, and drops what is not a frame', () => {
    expect(decodeFrames('{"type":"confirm","seq":1}')).toHaveLength(1);
    expect(decodeFrames('[{"type":"confirm","seq":1},{"type":"confirm","seq":2},3,null]')).toHaveLength(2);
    expect(decodeFrames('not json')).toEqual([]);
  });
});
