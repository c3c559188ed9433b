import { describe, expect, it } from 'vitest';
import { describeQuery, describeSelection, inSelections } from './deadLetters';

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

describe('a big selection', () => {
  it('goes in requests of at most 500 ids, the outcomes added up', async () => {
    const sent: number[] = [];
    const ids = Array.from({ length: 1201 }, (_, n) => id(n));
    const result = await inSelections(ids, async (chunk) => {
      sent.push(chunk.length);
      return { succeeded: chunk.slice(1), failed: [{ message_id: chunk[0], status: 404, code: 'message_not_found', message: 'gone' }] };
    });
    expect(sent).toEqual([500, 500, 201]);
    expect(result.succeeded).toHaveLength(1198);
    expect(result.failed.map((failure) => failure.message_id)).toEqual([id(0), id(500), id(1000)]);
  });
});
