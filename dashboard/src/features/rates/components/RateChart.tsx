import type { RateBucket } from '@miniqueue/sdk';
import { formatRate, lineSegments, niceMax } from '../../../lib/chart';
import { formatCount } from '../../../lib/format';
import { HISTORY_SECONDS, lastMinuteRate, perSecond, total, type RateField } from '../api/rates';

const WIDTH = 600;
const HEIGHT = 160;

export interface ChartLine {
  field: RateField;
  label: string;
  /** Tailwind classes: the stroke of the line and the swatch of the legend. */
  stroke: string;
  swatch: string;
  /** Said under the label, e.g. what a "publish" is. */
  meaning?: string;
}

/**
 * Rates per second over the last hour, one line per count, the legend giving each line's rate
 * over the last minute. Buckets come from the broker's history, so the chart is full on arrival.
 */
export function RateChart({ buckets, lines, testId }: { buckets: RateBucket[]; lines: ChartLine[]; testId?: string }) {
  const series = lines.map((line) => ({ line, values: perSecond(buckets, line.field) }));
  const max = niceMax(Math.max(0, ...series.flatMap(({ values }) => values)));
  // Points sit where their bucket falls in the hour, so a chart of a younger broker fills from the right.
  const slots = Math.round(HISTORY_SECONDS / 10);
  const pad = (values: number[]) => [...Array<null>(Math.max(0, slots - values.length)).fill(null), ...values];
  const summary = `Over the last hour: ${lines.map((line) => `${formatCount(total(buckets, line.field))} ${line.label.toLowerCase()}`).join(', ')}.`;

  return (
    <figure data-testid={testId} data-buckets={buckets.length}>
      <div className="mb-3 flex flex-wrap gap-x-6 gap-y-2 text-sm">
        {lines.map((line) => (
          <span key={line.field} className="inline-flex items-center gap-2 text-slate-600" data-line={line.field} data-hour-total={total(buckets, line.field)} title={line.meaning}>
            <span className={`h-1 w-4 rounded-full ${line.swatch}`} aria-hidden />
            {line.label}
            <strong className="font-semibold tabular-nums text-slate-900">{formatRate(lastMinuteRate(buckets, line.field))}/s</strong>
          </span>
        ))}
      </div>
      <div className="relative">
        <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="none" className="h-40 w-full overflow-visible" role="img" aria-label={summary}>
          {[0.25, 0.5, 0.75].map((fraction) => (
            <line key={fraction} x1={0} x2={WIDTH} y1={HEIGHT * fraction} y2={HEIGHT * fraction} className="stroke-slate-100" strokeWidth={1} vectorEffect="non-scaling-stroke" />
          ))}
          <line x1={0} x2={WIDTH} y1={HEIGHT} y2={HEIGHT} className="stroke-slate-300" strokeWidth={1} vectorEffect="non-scaling-stroke" />
          {series.map(({ line, values }) =>
            lineSegments(pad(values), max, WIDTH, HEIGHT).map((points) => (
              <polyline key={`${line.field}-${points.slice(0, 12)}`} points={points} fill="none" className={line.stroke} strokeWidth={2} vectorEffect="non-scaling-stroke" strokeLinejoin="round" />
            )),
          )}
        </svg>
        <span className="absolute left-1 top-0 text-xs text-slate-400">{formatCount(max)}/s</span>
      </div>
      <div className="mt-1 flex justify-between text-xs text-slate-500" aria-hidden>
        <span>60 min ago</span>
        <span>30 min ago</span>
        <span>now</span>
      </div>
      <figcaption className="mt-1 text-xs text-slate-500">Per second, in 10-second steps; the numbers above are the last minute's average.</figcaption>
    </figure>
  );
}
