import { describe, expect, it } from 'vitest';
import { describeQuery, describeSelection } from './deadLetters';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('dead-letter actions in words', () => {
  it('says what a selection did and what it left alone', () => {
    expect(describeSelection('Replayed', { succeeded: [id(1), id(2)], failed: [] })).toBe('Replayed 2 messages.');
    expect(
      describeSelection('Deleted', {
        succeeded: [id(1)],
        failed: [{ message_id: id(2), status: 409, code: 'message_not_dead', message: 'not dead' }],
      }),
    ).toBe('Deleted 1 message. 1 message was no longer dead, so it was left alone.');
  });

  it('names what a filter covers', () => {
    expect(describeQuery({}, String)).toBe('the dead letters of every queue');
    expect(describeQuery({ queue: 'q', reason: 'EXPIRED' }, () => 'Lease expired')).toBe('the dead letters of q (lease expired)');
  });
});
