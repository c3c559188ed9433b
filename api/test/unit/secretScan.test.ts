import { describe, expect, it } from 'vitest';
import { secretsIn } from '../helpers/logCapture.js';

const KEY = `mq_${'A1b2-_'.repeat(8)}`; // 51 characters of key material

describe('the log scan finds secrets however a line holds them', () => {
  it('as text, for every kind of secret', () => {
    for (const prefix of ['mq_', 'mqs_', 'lc_', 'wst_']) {
      expect(secretsIn(`{"msg":"Authorization: Bearer ${prefix}${'x'.repeat(43)}"}`)).toHaveLength(1);
    }
  });

  it('as bytes, the way pino writes a raw request', () => {
    const raw = Buffer.from(`GET / HTTP/1.1\r\nAuthorization: Bearer ${KEY}\r\n\r\n`);
    expect(secretsIn(JSON.stringify({ err: { rawPacket: raw } }))).toHaveLength(1);
  });

  it('not in what only looks like one: a key prefix, a name, a word ending in mq', () => {
    expect(secretsIn('{"key_prefix":"mq_AbCdEfGhI","name":"lc_orders","x":"farmq_' + 'a'.repeat(50) + '"}')).toEqual([]);
  });
});
