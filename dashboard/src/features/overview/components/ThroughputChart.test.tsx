import { describe, expect, it } from 'vitest';
import { linePoints, niceMax } from './ThroughputChart';

describe('the throughput chart', () => {
  it('rounds the axis up to a readable number', () => {
    expect([0, 0.4, 1, 1.2, 3, 7, 11, 49, 51, 230].map(niceMax)).toEqual([1, 1, 1, 2, 5, 10, 20, 50, 100, 500]);
  });

  it('scales values to the chart, zero at the bottom', () => {
    expect(linePoints([0, 5, 10], 10, 100, 50)).toBe('0.0,50.0 50.0,25.0 100.0,0.0');
    expect(linePoints([], 1)).toBe('');
  });
});
