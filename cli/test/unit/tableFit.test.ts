import type { Message } from '@miniqueue/sdk';
import { describe, expect, it } from 'vitest';
import { renderDeadLetters } from '../../src/lib/messageTable.js';
import { layoutOf, terminalWidth } from '../../src/lib/outputFlags.js';
import { renderTable } from '../../src/lib/table.js';
import { tailEventOf } from '../../src/lib/tailEvent.js';

const dead = (i: number): Message =>
  ({
    message_id: `0b7c4a4e-5f0e-4a57-9d55-1c0d2b6f8a0${i}`,
    queue: 'email-queue',
    topic: 'email',
    status: 'DEAD',
    retry_count: 5,
    consumer_id: 'email-service/replica-2',
    published_at: new Date('2026-12-01T10:00:00Z'),
    dead_at: new Date('2026-12-01T10:05:00Z'),
    dead_reason: 'NACKED',
    dead_detail: 'SMTP 550: mailbox unavailable for the recipient address given',
    payload: JSON.stringify({ to: 'someone@example.com', subject: 'Your order has shipped', body: 'x'.repeat(80) }),
  }) as unknown as Message;

const widthOf = (text: string) => Math.max(...text.split('\n').map((line) => line.length));

describe('tables fit the terminal', () => {
  const rows = [dead(1), dead(2)];

  it('the dead-letter table fits 120 columns: free text is cut, then the least useful columns left out, and said so', () => {
    const text = renderDeadLetters(rows, { format: 'table', width: 120 });
    expect(widthOf(text)).toBeLessThanOrEqual(120);
    expect(text).toContain(rows[0]!.message_id); // ids are never cut: they are what the next command takes
    expect(text.split('\n')[0]).toMatch(/^ID\s+QUEUE\s+.*DIED\s+WHY\s+PAYLOAD$/);
    expect(text.split('\n').at(-1)).toMatch(/^\(--wide shows .*PUBLISHED.*\)$/);
  });

  it('at 80 columns too, and --wide (no limit) keeps every column whole', () => {
    expect(widthOf(renderDeadLetters(rows, { format: 'table', width: 80 }))).toBeLessThanOrEqual(80);
    const wide = renderDeadLetters(rows, layoutOf({ wide: true }));
    expect(wide.split('\n')[0]).toMatch(/^ID\s+QUEUE\s+RETRIES\s+LAST CONSUMER\s+PUBLISHED\s+DIED\s+WHY\s+PAYLOAD$/);
    expect(wide).not.toContain('--wide shows');
    expect(wide).toContain(rows[0]!.dead_detail!.slice(0, 59));
  });

  it('-o tsv: a header and one tab-separated row each, nothing cut', () => {
    const tsv = renderDeadLetters(rows, layoutOf({ output: 'tsv' }));
    const lines = tsv.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]!.split('\t')).toEqual(['ID', 'QUEUE', 'RETRIES', 'LAST CONSUMER', 'PUBLISHED', 'DIED', 'WHY', 'PAYLOAD']);
    expect(lines[1]!.split('\t')[6]).toBe(rows[0]!.dead_detail);
  });

  it('a tab or newline in a value does not break a TSV row', () => {
    expect(renderTable([{ a: 'x\ty\nz' }], [{ header: 'A', value: (r) => r.a }], { format: 'tsv', width: Infinity })).toBe('A\nx y z');
  });

  it('the width is the terminal’s, else $COLUMNS, else no limit', () => {
    expect(terminalWidth({ isTTY: true, columns: 97 })).toBe(97);
    const saved = process.env.COLUMNS;
    try {
      process.env.COLUMNS = '120';
      expect(terminalWidth({ isTTY: false })).toBe(120);
      delete process.env.COLUMNS;
      expect(terminalWidth({ isTTY: false })).toBe(Infinity);
    } finally {
      if (saved === undefined) delete process.env.COLUMNS;
      else process.env.COLUMNS = saved;
    }
  });
});

describe('tail --json events', () => {
  const at = { queueName: 'q', count: 1, timestamp: '2026-12-01T10:00:00Z' };
  const id = '0b7c4a4e-5f0e-4a57-9d55-1c0d2b6f8a01';

  it('name the message and why, from the broker’s detail', () => {
    const cases: Array<[string, string, string | null]> = [
      ['PUBLISHED', `Message ${id} published to q`, null],
      ['REDELIVERED', `Message ${id} redelivered on q: its lease expired`, 'lease_expired'],
      ['NACKED', `Message ${id} rejected on q and requeued`, 'requeued'],
      ['NACKED', `Message ${id} rejected on q`, 'rejected'],
      ['DEAD', `Message ${id} moved to the dead-letter queue of q: lease expired with no retries left`, 'lease_expired'],
      ['DEAD', `Message ${id} moved to the dead-letter queue of q`, 'rejected'],
      ['REPLAYED', `Message ${id} replayed from the dead-letter queue of q`, 'replayed'],
    ];
    for (const [eventType, detail, reason] of cases) expect(tailEventOf({ ...at, eventType, detail }), detail).toMatchObject({ messageId: id, reason });
  });

  it('a summary names no message; fields the broker sends win', () => {
    expect(tailEventOf({ ...at, count: 500, eventType: 'PUBLISHED', detail: '500 messages published to q' })).toMatchObject({ messageId: null, reason: null });
    expect(tailEventOf({ ...at, eventType: 'DEAD', detail: 'anything', messageId: id, reason: 'RETRIES_EXHAUSTED' })).toMatchObject({
      messageId: id,
      reason: 'RETRIES_EXHAUSTED',
    });
  });
});
