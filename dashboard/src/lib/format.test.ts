import { describe, expect, it } from 'vitest';
import { formatAge, formatCount, prettyPayload } from './format';

describe('formatting', () => {
  it('turns an age in seconds into words a person reads at a glance', () => {
    expect(formatAge(0)).toBe('just now');
    expect(formatAge(45.7)).toBe('45 s');
    expect(formatAge(12 * 60 + 5)).toBe('12 min');
    expect(formatAge(3 * 3600)).toBe('3 h');
    expect(formatAge(3 * 3600 + 5 * 60)).toBe('3 h 5 min');
    expect(formatAge(2 * 86400 + 4 * 3600)).toBe('2 d 4 h');
  });

  it('indents JSON payloads and leaves others as they were sent', () => {
    expect(prettyPayload('{"a":1,"b":[2]}')).toEqual({ text: '{\n  "a": 1,\n  "b": [\n    2\n  ]\n}', json: true });
    expect(prettyPayload('plain <b>text</b>')).toEqual({ text: 'plain <b>text</b>', json: false });
  });

  it('groups thousands', () => {
    expect(formatCount(1234567)).toBe('1,234,567');
  });
});
