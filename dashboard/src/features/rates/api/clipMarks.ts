/** A run of neighbouring points above the axis, marked once at its highest point. */
export interface ClipMark {
  /** Index of the highest point among the run (in the values given). */
  index: number;
  value: number;
}

/** The runs of values above `max` in any series, each marked at its peak; at most `limit`, the highest kept. */
export function clipMarks(series: readonly (readonly (number | null)[])[], max: number, limit = 5): ClipMark[] {
  const length = Math.max(0, ...series.map((values) => values.length));
  const marks: ClipMark[] = [];
  let run: ClipMark | null = null;
  for (let index = 0; index < length; index++) {
    const peak = Math.max(...series.map((values) => values[index] ?? 0));
    if (peak > max) {
      if (!run || peak > run.value) run = { index, value: peak };
    } else if (run) {
      marks.push(run);
      run = null;
    }
  }
  if (run) marks.push(run);
  return marks
    .sort((a, b) => b.value - a.value)
    .slice(0, limit)
    .sort((a, b) => a.index - b.index);
}
