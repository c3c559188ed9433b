import type { RateBucket } from '@miniqueue/sdk';
import { formatCount } from '../../../lib/format';
import { carryForward } from '../api/rates';
import type { ChartWindow } from '../api/windows';
import { SeriesChart } from './SeriesChart';

/** Pending messages at the end of each bucket (its last sample), the newest in the legend. */
export function DepthChart({ buckets, window, testId }: { buckets: RateBucket[]; window: ChartWindow; testId?: string }) {
  const values = carryForward(buckets.map((bucket) => bucket.depth));
  const latest = [...values].reverse().find((value) => value !== null) ?? null;
  return (
    <SeriesChart
      testId={testId}
      window={window}
      times={buckets.map((bucket) => bucket.at)}
      series={[
        {
          key: 'depth',
          label: 'Pending',
          stroke: 'stroke-amber-500',
          swatch: 'bg-amber-500',
          meaning: 'Messages waiting for a consumer, sampled every 5 seconds',
          values,
          headline: latest === null ? '—' : formatCount(latest),
          data: { line: 'depth', latest: latest ?? '' },
        },
      ]}
      format={formatCount}
      summary={`Pending messages over ${window.phrase}${latest === null ? '' : `, ${formatCount(latest)} at the last sample`}.`}
      caption="Messages pending at the last sample of each step (every 5 seconds while the broker runs), held until the next."
    />
  );
}
