import { describe, expect, it } from 'vitest';
import { clipMarks } from './clipMarks';

describe('clipped spikes', () => {
  it('marks each run above the axis once, at its peak, across every line', () => {
    expect(clipMarks([[1, 50, 80, 2, null, 3, 40]], 10)).toEqual([
      { index: 2, value: 80 },
      { index: 6, value: 40 },
    ]);
    expect(
      clipMarks(
        [
          [1, 2],
          [1, 30],
        ],
        10,
      ),
    ).toEqual([{ index: 1, value: 30 }]);
    expect(clipMarks([[1, 2, 3]], 10)).toEqual([]);
  });

  it('keeps the highest runs when there are too many to mark', () => {
    expect(clipMarks([[20, 0, 30, 0, 40]], 10, 2).map((mark) => mark.value)).toEqual([30, 40]);
  });
});
