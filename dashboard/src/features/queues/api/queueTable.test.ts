import { describe, expect, it } from 'vitest';
import { filterByName, nextSort, sortRows } from './queueTable';

const rows = [
  { queue: 'email', topic: 'orders', pending: 3 },
  { queue: 'stock', topic: 'orders', pending: 9 },
  { queue: 'audit', topic: 'payments', pending: 3 },
];

describe('the queue table', () => {
  it('filters by queue or topic name, in any case', () => {
    expect(filterByName(rows, 'PAY').map((row) => row.queue)).toEqual(['audit']);
    expect(filterByName(rows, 'E').map((row) => row.queue)).toEqual(['email', 'stock', 'audit']);
    expect(filterByName(rows, ' ')).toHaveLength(3);
  });

  it('sorts by a number with name order for ties, and by name', () => {
    expect(sortRows(rows, (row) => row.pending, 'desc').map((row) => row.queue)).toEqual(['stock', 'audit', 'email']);
    expect(sortRows(rows, (row) => row.queue, 'asc').map((row) => row.queue)).toEqual(['audit', 'email', 'stock']);
  });

  it('turns a sorted column around and starts a new one from the top', () => {
    expect(nextSort({ key: 'pending', direction: 'desc' }, 'pending', false)).toEqual({ key: 'pending', direction: 'asc' });
    expect(nextSort({ key: 'pending', direction: 'desc' }, 'queue', true)).toEqual({ key: 'queue', direction: 'asc' });
    expect(nextSort({ key: 'queue', direction: 'asc' }, 'dead', false)).toEqual({ key: 'dead', direction: 'desc' });
  });
});
