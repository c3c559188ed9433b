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
    segments[segments.length - 1].push(`${(index * step).toFixed(1)},${(height - (value / max) * height).toFixed(1)}`);
  });
  return segments.filter((points) => points.length > 0).map((points) => points.join(' '));
}

/** A rate for people: one decimal below 10, whole numbers above. */
export const formatRate = (value: number): string => (value >= 10 ? Math.round(value).toLocaleString('en') : value.toFixed(1));
