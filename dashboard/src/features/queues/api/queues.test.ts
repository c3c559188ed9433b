import { describe, expect, it } from 'vitest';
import { describeTotal, messageIdOf, pageCount } from './queues';

describe('message listings', () => {
  it('says how many match, exactly or as a lower bound', () => {
    expect(describeTotal({ total: 5704, total_exact: true })).toBe('5,704 messages');
    expect(describeTotal({ total: 1, total_exact: true })).toBe('1 message');
    expect(describeTotal({ total: 10000, total_exact: false })).toBe('more than 10,000 messages');
    expect(describeTotal({ total: null, total_exact: false })).toBeNull();
    expect(describeTotal({ total: 3, total_exact: true }, 'DEAD')).toBe('3 DEAD messages');
  });

  it('counts pages only when the total is exact', () => {
    expect(pageCount({ total: 5704, total_exact: true })).toBe(286);
    expect(pageCount({ total: 0, total_exact: true })).toBe(1);
    expect(pageCount({ total: 10000, total_exact: false })).toBeUndefined();
  });

  it('takes a pasted id with spaces or capitals, and nothing that is not an id', () => {
    expect(messageIdOf(' 3F2A9C1E-5B7D-4E8A-9C21-7D4E5F6A8B90 ')).toBe('3f2a9c1e-5b7d-4e8a-9c21-7d4e5f6a8b90');
    expect(messageIdOf('3f2a9c1e')).toBeNull();
  });
});
