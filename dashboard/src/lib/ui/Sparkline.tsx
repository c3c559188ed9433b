import { lineSegments, niceMax } from '../chart';

const WIDTH = 80;
const HEIGHT = 24;

/** A tiny line of a recent series (a queue's depth over the hour); gaps where nothing was sampled. */
export function Sparkline({ values, label }: { values: readonly (number | null)[]; label: string }) {
  const numbers = values.filter((value): value is number => value !== null);
  const max = niceMax(Math.max(0, ...numbers));
  return (
    <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="none" className="h-6 w-20 overflow-visible" role="img" aria-label={label}>
      <line x1={0} x2={WIDTH} y1={HEIGHT} y2={HEIGHT} className="stroke-slate-200" strokeWidth={1} vectorEffect="non-scaling-stroke" />
      {lineSegments(values, max, WIDTH, HEIGHT).map((points) => (
        <polyline
          key={points}
          points={points}
          fill="none"
          className="stroke-amber-500"
          strokeWidth={1.5}
          vectorEffect="non-scaling-stroke"
          strokeLinejoin="round"
        />
      ))}
    </svg>
  );
}
