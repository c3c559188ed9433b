/** A round ceiling for a y axis, so its label reads well (1, 2, 5, 10, 20, 50…). */
export function niceMax(value: number): number {
  if (value <= 1) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 5, 10].map((factor) => factor * magnitude).find((candidate) => candidate >= value) ?? 10 * magnitude;
}

/**
 * SVG polylines through a series scaled to width × height, zero at the bottom. A null (no sample)
 * breaks the line, so a gap is never drawn as a fall to zero.
 */
export function lineSegments(values: readonly (number | null)[], max: number, width: number, height: number): string[] {
  if (values.length === 0) return [];
  const step = values.length > 1 ? width / (values.length - 1) : width;
  const segments: string[][] = [[]];
  values.forEach((value, index) => {
    if (value === null) {
      if (segments[segments.length - 1].length > 0) segments.push([]);
      return;
    }
    // Above the axis (a clipped spike) the line runs along the top; the chart marks the point.
    segments[segments.length - 1].push(`${(index * step).toFixed(1)},${(height - (Math.min(value, max) / max) * height).toFixed(1)}`);
  });
  return segments.filter((points) => points.length > 0).map((points) => points.join(' '));
}

/** A rate for people: one decimal below 10, whole numbers above. */
export const formatRate = (value: number): string => (value >= 10 ? Math.round(value).toLocaleString('en') : value.toFixed(1));

/** A value this many times the chart's typical high (its 95th percentile) is a spike. */
export const SPIKE_FACTOR = 3;

/** The value below which `share` of the values lie (nearest rank); 0 for none. */
function percentile(values: readonly number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) * share)] ?? 0;
}

/**
 * Where a chart's axis ends so that what usually happens stays readable: the highest value,
 * unless a few values stand more than SPIKE_FACTOR above the usual highs (the 95th percentile of
 * the busiest line: a one-off import among steady traffic); then the axis ends a little above
 * those and `clipped` says the chart must mark what rises past it. Each line is judged on its
 * own, so a quiet line (acks at zero) does not make a busy one look like a spike. A chart
 * mostly at zero is not clipped (its spike is all there is to see).
 */
export function visibleScale(series: readonly (readonly (number | null)[])[], { reachLatest = false } = {}): { max: number; clipped: boolean } {
  const lines = series.map((values) => values.filter((value): value is number => value !== null));
  const top = Math.max(0, ...lines.flat());
  const typical = Math.max(0, ...lines.map((values) => percentile(values, 0.95)));
  if (typical <= 0 || top <= SPIKE_FACTOR * typical) return { max: niceMax(top), clipped: false };
  // A gauge's newest value is the present (a backlog building up now), never a spike to cut off.
  const latest = reachLatest ? Math.max(0, ...lines.map((values) => values.at(-1) ?? 0)) : 0;
  const max = niceMax(Math.max(typical * 1.2, latest));
  return { max, clipped: top > max };
}
