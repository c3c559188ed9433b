import { describe, expect, it } from 'vitest';
import { formatSeconds, formatTime, oneLine } from '../../src/lib/format.js';
import { parseHeaders } from '../../src/lib/headers.js';
import { renderPairs, renderTable } from '../../src/lib/table.js';

describe('renderTable', () => {
  it('aligns columns, right-aligns numbers, and does not pad the last column', () => {
    const rows = [
      { name: 'email-queue', count: 7, note: 'a' },
      { name: 'q', count: 1234, note: 'longer note' },
    ];
    const text = renderTable(rows, [
      { header: 'NAME', value: (r) => r.name },
      { header: 'COUNT', value: (r) => r.count, align: 'right' },
      { header: 'NOTE', value: (r) => r.note },
    ]);
    expect(text).toBe(['NAME         COUNT  NOTE', 'email-queue      7  a', 'q             1234  longer note'].join('\n'));
  });

  it('renders label-value pairs', () => {
    expect(
      renderPairs([
        ['name', 'x'],
        ['scopes', 'a, b'],
      ]),
    ).toBe('name    x\nscopes  a, b');
  });
});

describe('format', () => {
  it('times are UTC to the second', () => {
    expect(formatTime(new Date('2026-11-29T10:00:00.123Z'))).toBe('2026-11-29 10:00:00Z');
    expect(formatTime(null)).toBe('-');
  });

  it('payloads become one short line', () => {
    expect(oneLine('a\n  b\tc')).toBe('a b c');
    expect(oneLine('x'.repeat(100), 10)).toBe(`${'x'.repeat(9)}…`);
  });

  it('ages read as a person would say them', () => {
    expect(formatSeconds(5.4)).toBe('5s');
    expect(formatSeconds(125)).toBe('2m5s');
    expect(formatSeconds(7260)).toBe('2h1m');
  });
});

describe('parseHeaders', () => {
  it('takes name=value and curl-style name: value', () => {
    expect(parseHeaders(['content-type=application/json', 'x-trace: a=b'])).toEqual({ 'content-type': 'application/json', 'x-trace': 'a=b' });
    expect(parseHeaders([])).toBeUndefined();
  });

  it('refuses a pair without a name', () => {
    expect(() => parseHeaders(['novalue'])).toThrow(/Not a header/);
    expect(() => parseHeaders(['=x'])).toThrow(/Not a header/);
  });
});
