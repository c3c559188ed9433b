import type { RateBucket } from '@miniqueue/sdk';
import { formatCount } from '../../../lib/format';
import { carryForward } from '../api/rates';
import type { ChartWindow } from '../api/windows';
import { SeriesChart } from './SeriesChart';

/**
 * Pending messages at the end of each bucket (its last sample), ending at the present: the last
 * point is `current` (the queue's count now) when it is known, and the axis always reaches it, so
 * a backlog building up now is drawn whole, not cut off as a spike.
 */
export function DepthChart({ buckets, window, testId, current }: { buckets: RateBucket[]; window: ChartWindow; testId?: string; current?: number }) {
  const sampled = carryForward(buckets.map((bucket) => bucket.depth));
  // The current bucket is sampled only as it ends: until then its point is the count of now.
  const values = current === undefined || sampled.length === 0 ? sampled : [...sampled.slice(0, -1), current];
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
      reachLatest
      summary={`Pending messages over ${window.phrase}${latest === null ? '' : `, ${formatCount(latest)} ${current === undefined ? 'at the last sample' : 'now'}`}.`}
      caption="Messages pending at the last sample of each step (every 5 seconds while the broker runs), held until the next; the last point is now."
    />
  );
}
