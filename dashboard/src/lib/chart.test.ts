import { describe, expect, it } from 'vitest';
import { formatRate, lineSegments, niceMax } from './chart';

describe('charts', () => {
  it('rounds the axis up to a readable number', () => {
    expect([0, 0.4, 1, 1.2, 3, 7, 11, 49, 51, 230].map(niceMax)).toEqual([1, 1, 1, 2, 5, 10, 20, 50, 100, 500]);
  });

  it('scales values to the chart, zero at the bottom, and breaks the line at a missing sample', () => {
    expect(lineSegments([0, 5, 10], 10, 100, 50)).toEqual(['0.0,50.0 50.0,25.0 100.0,0.0']);
    expect(lineSegments([1, null, 1, 1], 1, 30, 10)).toEqual(['0.0,0.0', '20.0,0.0 30.0,0.0']);
    expect(lineSegments([], 1, 10, 10)).toEqual([]);
  });

  it('writes rates with a decimal only where it matters', () => {
    expect([0, 0.25, 9.96, 12.4, 1234.5].map(formatRate)).toEqual(['0.0', '0.3', '10.0', '12', '1,235']);
  });
});
