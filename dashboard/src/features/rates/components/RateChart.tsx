import type { RateBucket } from '@miniqueue/sdk';
import { formatRate } from '../../../lib/chart';
import { formatCount } from '../../../lib/format';
import { lastMinuteRate, perSecond, total, type RateField } from '../api/rates';
import type { ChartWindow } from '../api/windows';
import { SeriesChart } from './SeriesChart';

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
 * Rates per second over the window, one line per count, the legend giving each line's rate over
 * the last minute. Buckets come from the broker's history, so the chart is full on arrival.
 */
export function RateChart({ buckets, lines, window, testId }: { buckets: RateBucket[]; lines: ChartLine[]; window: ChartWindow; testId?: string }) {
  const summary = `Over ${window.phrase}: ${lines.map((line) => `${formatCount(total(buckets, line.field))} ${line.label.toLowerCase()}`).join(', ')}.`;
  return (
    <SeriesChart
      testId={testId}
      window={window}
      times={buckets.map((bucket) => bucket.at)}
      series={lines.map((line) => ({
        ...line,
        key: line.field,
        values: perSecond(buckets, line.field, window.resolution),
        headline: `${formatRate(lastMinuteRate(buckets, line.field, window.resolution))}/s`,
        data: { line: line.field, 'window-total': total(buckets, line.field) },
      }))}
      format={(value) => `${formatRate(value)}/s`}
      summary={summary}
      caption={`Per second, in ${window.resolution < 60 ? `${window.resolution}-second` : `${window.resolution / 60}-minute`} steps; the numbers above are the last minute's average.`}
    />
  );
}
