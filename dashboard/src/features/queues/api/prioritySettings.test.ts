import { describe, expect, it } from 'vitest';
import { prioritiesText } from './prioritySettings';

describe('queue priorities', () => {
  it('says whether and how far a queue orders by priority', () => {
    expect(prioritiesText({ max_priority: null })).toBe('none (oldest first)');
    expect(prioritiesText({ max_priority: 9 })).toBe('highest first, 0–9 (fixed when the queue was created)');
  });
});
