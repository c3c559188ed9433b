import { describe, expect, it } from 'vitest';
import { MAX_NACK_REASON_LENGTH, nackReason } from '../../src/consumer/nackReason.js';

describe('nackReason', () => {
  it("is an Error's message, or any other thrown value as text", () => {
    expect(nackReason(new Error('boom'))).toBe('boom');
    expect(nackReason('plain string')).toBe('plain string');
    expect(nackReason(42)).toBe('42');
    expect(nackReason(undefined)).toBe('undefined');
  });

  it('is empty for a value that cannot become text', () => {
    expect(nackReason(Object.create(null))).toBe('');
  });

  it('drops NUL characters, which the broker refuses', () => {
    expect(nackReason(new Error('a\0b\0'))).toBe('ab');
  });

  it('keeps a reason of exactly the limit whole and cuts a longer one to it', () => {
    expect(nackReason('x'.repeat(MAX_NACK_REASON_LENGTH))).toHaveLength(MAX_NACK_REASON_LENGTH);
    expect(nackReason('x'.repeat(MAX_NACK_REASON_LENGTH + 1))).toBe('x'.repeat(MAX_NACK_REASON_LENGTH));
  });

  it('never splits a surrogate pair at the cut', () => {
    // The emoji's two code units sit at positions 499 and 500: keeping only the first would be invalid text.
    const reason = nackReason(`${'x'.repeat(MAX_NACK_REASON_LENGTH - 1)}😀tail`);
    expect(reason).toBe('x'.repeat(MAX_NACK_REASON_LENGTH - 1));
    // A pair that ends right at the limit is kept.
    expect(nackReason(`${'x'.repeat(MAX_NACK_REASON_LENGTH - 2)}😀tail`)).toBe(`${'x'.repeat(MAX_NACK_REASON_LENGTH - 2)}😀`);
  });

  it('cuts after removing NUL, so the limit counts what is sent', () => {
    expect(nackReason(`${'\0'.repeat(10)}${'y'.repeat(MAX_NACK_REASON_LENGTH)}`)).toBe('y'.repeat(MAX_NACK_REASON_LENGTH));
  });
});
