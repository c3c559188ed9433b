import { describe, expect, it } from 'vitest';
import { fairnessText, perKeyLimitOf } from './fairnessSettings';

describe('queue fair sharing', () => {
  it('says whether a queue shares its deliveries out by key, and how many of a key may be in flight', () => {
    expect(fairnessText({ fairness: 'none', max_in_flight_per_key: null })).toBe('none (oldest first)');
    expect(fairnessText({ fairness: 'by_key', max_in_flight_per_key: null })).toBe(
      'by group key, in turn (fixed when the queue was created); no limit per key',
    );
    expect(fairnessText({ fairness: 'by_key', max_in_flight_per_key: 3 })).toBe(
      'by group key, in turn (fixed when the queue was created); at most 3 in flight per key',
    );
  });

  it('reads a per-key limit as typed: empty is none, else a whole number from 1 to 10000', () => {
    expect(perKeyLimitOf(' ')).toBeNull();
    expect(perKeyLimitOf(' 7 ')).toBe(7);
    expect(perKeyLimitOf('10000')).toBe(10000);
    expect(perKeyLimitOf('10001')).toBe('Between 1 and 10000, or empty for no limit.');
    expect(perKeyLimitOf('0')).toBe('Between 1 and 10000, or empty for no limit.');
    expect(perKeyLimitOf('two')).toBe('Enter a whole number of messages, or leave empty for no limit.');
  });
});
