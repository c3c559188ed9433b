import { describe, expect, it } from 'vitest';
import { formatRate, lineSegments, niceMax, visibleScale } from './chart';

describe('charts', () => {
  it('rounds the axis up to a readable number', () => {
    expect([0, 0.4, 1, 1.2, 3, 7, 11, 49, 51, 230].map(niceMax)).toEqual([1, 1, 1, 2, 5, 10, 20, 50, 100, 500]);
  });

  it('scales values to the chart, zero at the bottom, and breaks the line at a missing sample', () => {
    expect(lineSegments([0, 5, 10], 10, 100, 50)).toEqual(['0.0,50.0 50.0,25.0 100.0,0.0']);
    expect(lineSegments([1, null, 1, 1], 1, 30, 10)).toEqual(['0.0,0.0', '20.0,0.0 30.0,0.0']);
    expect(lineSegments([], 1, 10, 10)).toEqual([]);
  });

  it('keeps steady traffic readable under a one-off spike: the axis ends near the usual highs, and says it clipped', () => {
    const steady = Array.from({ length: 360 }, (_, n) => 30 + (n % 46));
    expect(visibleScale([steady])).toEqual({ max: 100, clipped: false });
    expect(visibleScale([[...steady.slice(0, 200), 6000, ...steady.slice(201)]])).toEqual({ max: 100, clipped: true });
    // A quiet line beside it does not turn the busy line's usual highs into spikes.
    const acks = steady.map(() => 0);
    expect(visibleScale([[...steady.slice(0, 300), ...steady.slice(300).map((value) => value + 40)], acks])).toEqual({ max: 200, clipped: false });
    // Mostly idle: the spike is the story, drawn whole.
    expect(visibleScale([[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 6000, null]])).toEqual({ max: 10_000, clipped: false });
    expect(visibleScale([])).toEqual({ max: 1, clipped: false });
    // A clipped point runs along the top of the chart.
    expect(lineSegments([5, 50], 10, 10, 10)).toEqual(['0.0,5.0 10.0,0.0']);
  });

  it('draws a gauge up to its present: a backlog building up now is never cut off as a spike', () => {
    const steady = Array.from({ length: 360 }, (_, n) => 30 + (n % 46));
    const building = [...steady.slice(0, 355), 800, 1600, 2400, 3200, 4000];
    // As a rate, the newest values would be clipped like any spike...
    expect(visibleScale([building])).toEqual({ max: 100, clipped: true });
    // ...as a depth, the axis reaches the newest value, and nothing else is above it.
    expect(visibleScale([building], { reachLatest: true })).toEqual({ max: 5_000, clipped: false });
    // An old spike above the present is still clipped.
    const spikeThenLow = [...steady.slice(0, 100), 9000, ...steady.slice(101, 359), 400];
    expect(visibleScale([spikeThenLow], { reachLatest: true })).toEqual({ max: 500, clipped: true });
  });

  it('writes rates with a decimal only where it matters', () => {
    expect([0, 0.25, 9.96, 12.4, 1234.5].map(formatRate)).toEqual(['0.0', '0.3', '10.0', '12', '1,235']);
  });
});
