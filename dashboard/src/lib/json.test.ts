import { describe, expect, it } from 'vitest';
import { checkJson, utf8Bytes } from './json';

describe('checking a payload as JSON', () => {
  it('accepts JSON of any kind', () => {
    for (const text of ['{}', '[1,2]', '"text"', '42', 'null', '{\n  "a": [1, {"b": true}]\n}']) expect(checkJson(text)).toEqual({ ok: true });
  });

  it('says where JSON breaks, as a line and column', () => {
    const result = checkJson('{\n  "orderId": 42,\n}');
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toMatch(/^Not valid JSON at line 3, column 1: /);
  });

  it('explains an empty payload or a cut-off one', () => {
    expect(checkJson('  ')).toEqual({ ok: false, message: 'The payload is empty.' });
    const cut = checkJson('{"a": ');
    expect(cut.ok).toBe(false);
    expect(!cut.ok && cut.message).toMatch(/^Not valid JSON/);
  });

  it('measures size in UTF-8 bytes, as the broker does', () => {
    expect(utf8Bytes('abc')).toBe(3);
    expect(utf8Bytes('é€')).toBe(5);
  });
});
