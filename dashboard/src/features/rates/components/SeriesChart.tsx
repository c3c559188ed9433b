import { useState, type KeyboardEvent, type PointerEvent } from 'react';
import { lineSegments, visibleScale } from '../../../lib/chart';
import { formatClock } from '../../../lib/format';
import { clipMarks } from '../api/clipMarks';
import type { ChartWindow } from '../api/windows';

const WIDTH = 600;
const HEIGHT = 160;

export interface Series {
  key: string;
  label: string;
  /** Tailwind classes: the stroke of the line and the swatch of the legend. */
  stroke: string;
  swatch: string;
  meaning?: string;
  /** One value per bucket, oldest first; null where nothing was sampled. */
  values: (number | null)[];
  /** Said beside the label: the last minute's rate, the depth now. */
  headline: string;
  /** Data attributes of the legend entry, for tests and tools. */
  data?: Record<string, string | number>;
}

interface Props {
  times: Date[];
  series: Series[];
  window: ChartWindow;
  /** A value with its unit, e.g. "12/s" or "1,204". */
  format: (value: number) => string;
  summary: string;
  caption: string;
  testId?: string;
  /** The axis always reaches each line's newest value (a gauge such as the depth: the present is never clipped). */
  reachLatest?: boolean;
}

/**
 * Lines over a window, the axis ending where the usual values do: a spike far above them is
 * clipped at the top and marked with its value, so it cannot flatten the rest. Pointing at the
 * chart (or arrow keys once it has focus) shows every line's value in that bucket.
 */
export function SeriesChart({ times, series, window, format, summary, caption, testId, reachLatest = false }: Props) {
  const [cursor, setCursor] = useState<number | null>(null);
  const scale = visibleScale(
    series.map((entry) => entry.values),
    { reachLatest },
  );
  const marks = scale.clipped
    ? clipMarks(
        series.map((entry) => entry.values),
        scale.max,
      )
    : [];
  // Points sit where their bucket falls in the window, so a chart of a younger broker fills from the right.
  const slots = Math.round(window.seconds / window.resolution);
  const offset = Math.max(0, slots - times.length);
  const xOf = (index: number) => (slots > 1 ? ((index + offset) / (slots - 1)) * 100 : 100);
  const pad = (values: (number | null)[]) => [...Array<null>(offset).fill(null), ...values];

  const pointAt = (event: PointerEvent<HTMLDivElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    const slot = Math.round(((event.clientX - box.left) / box.width) * (slots - 1));
    const index = slot - offset;
    setCursor(index >= 0 && index < times.length ? index : null);
  };
  const step = (event: KeyboardEvent<HTMLDivElement>) => {
    const last = times.length - 1;
    const moves: Record<string, number> = { ArrowLeft: (cursor ?? last + 1) - 1, ArrowRight: (cursor ?? -1) + 1, Home: 0, End: last };
    if (!(event.key in moves) || last < 0) return;
    event.preventDefault();
    setCursor(Math.min(last, Math.max(0, moves[event.key])));
  };

  return (
    <figure data-testid={testId} data-buckets={times.length} data-clipped={scale.clipped} data-axis-max={scale.max}>
      <div className="mb-3 flex flex-wrap gap-x-6 gap-y-2 text-sm">
        {series.map((entry) => (
          <span key={entry.key} className="inline-flex items-center gap-2 text-slate-600" title={entry.meaning} {...dataAttributes(entry.data)}>
            <span className={`h-1 w-4 rounded-full ${entry.swatch}`} aria-hidden />
            {entry.label}
            <strong className="font-semibold tabular-nums text-slate-900">{entry.headline}</strong>
          </span>
        ))}
      </div>
      <div
        className="relative touch-none outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
        tabIndex={0}
        role="group"
        aria-label={`${summary} Use the arrow keys for the values of each moment.`}
        onPointerMove={pointAt}
        onPointerDown={pointAt}
        onPointerLeave={() => setCursor(null)}
        onKeyDown={step}
        onBlur={() => setCursor(null)}
        data-testid={testId && `${testId}-plot`}
      >
        <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="none" className="h-40 w-full overflow-visible" role="img" aria-label={summary}>
          {[0.25, 0.5, 0.75].map((fraction) => (
            <line
              key={fraction}
              x1={0}
              x2={WIDTH}
              y1={HEIGHT * fraction}
              y2={HEIGHT * fraction}
              className="stroke-slate-100"
              strokeWidth={1}
              vectorEffect="non-scaling-stroke"
            />
          ))}
          <line x1={0} x2={WIDTH} y1={HEIGHT} y2={HEIGHT} className="stroke-slate-300" strokeWidth={1} vectorEffect="non-scaling-stroke" />
          {scale.clipped && (
            <line x1={0} x2={WIDTH} y1={0} y2={0} className="stroke-rose-300" strokeWidth={1} strokeDasharray="4 3" vectorEffect="non-scaling-stroke" />
          )}
          {series.map((entry) =>
            lineSegments(pad(entry.values), scale.max, WIDTH, HEIGHT).map((points) => (
              <polyline
                key={`${entry.key}-${points.slice(0, 12)}`}
                points={points}
                fill="none"
                className={entry.stroke}
                strokeWidth={2}
                vectorEffect="non-scaling-stroke"
                strokeLinejoin="round"
              />
            )),
          )}
        </svg>
        <span className="absolute left-1 top-0 bg-white/80 px-0.5 text-xs text-slate-600">{format(scale.max)}</span>
        {marks.map((mark) => (
          <span
            key={mark.index}
            className="absolute -top-2.5 -translate-x-1/2 whitespace-nowrap rounded bg-rose-700 px-1 text-[11px] font-semibold leading-4 text-white"
            style={{ left: `${xOf(mark.index)}%` }}
            data-testid="clip-mark"
            title="Off the scale: the axis ends at the usual highs"
          >
            ▲ {format(mark.value)}
          </span>
        ))}
        {cursor !== null && (
          <Tooltip at={xOf(cursor)} time={times[cursor]} rows={series.map((entry) => ({ entry, value: entry.values[cursor] }))} format={format} />
        )}
      </div>
      <div className="mt-1 flex justify-between text-xs text-slate-600" aria-hidden>
        <span>{window.start}</span>
        <span>now</span>
      </div>
      <figcaption className="mt-1 text-xs text-slate-600">
        {caption}
        {scale.clipped && ' Spikes far above the usual values are cut at the dashed line and marked ▲ with their value.'}
      </figcaption>
    </figure>
  );
}

function Tooltip({ at, time, rows, format }: { at: number; time: Date; rows: { entry: Series; value: number | null }[]; format: (value: number) => string }) {
  // Kept inside the chart: anchored on its left edge in the left half, on its right edge in the right half.
  const side = at < 50 ? { left: `${at}%` } : { right: `${100 - at}%` };
  return (
    <>
      <span className="pointer-events-none absolute inset-y-0 w-px bg-slate-400" style={{ left: `${at}%` }} aria-hidden />
      <div
        role="status"
        data-testid="chart-tooltip"
        className="pointer-events-none absolute top-2 z-10 mx-1 min-w-36 rounded-md bg-slate-900 px-2.5 py-1.5 text-xs text-white shadow-lg"
        style={side}
      >
        <p className="font-semibold">{formatClock(time.toISOString())}</p>
        {rows.map(({ entry, value }) => (
          <p key={entry.key} className="flex justify-between gap-3 tabular-nums">
            <span>{entry.label}</span>
            <span>{value === null ? '—' : format(value)}</span>
          </p>
        ))}
      </div>
    </>
  );
}

const dataAttributes = (data: Record<string, string | number> = {}) => Object.fromEntries(Object.entries(data).map(([key, value]) => [`data-${key}`, value]));
