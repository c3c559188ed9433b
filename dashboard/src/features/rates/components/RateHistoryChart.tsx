import { ErrorNotice, Loading } from '../../../lib/ui/States';
import { useRateSeries } from '../api/useRateSeries';
import { RateChart, type ChartLine } from './RateChart';

/** A rate chart of the broker (or one queue) loaded from its history and kept current. */
export function RateHistoryChart({ queue, lines, testId }: { queue?: string; lines: ChartLine[]; testId?: string }) {
  const history = useRateSeries(queue);
  if (history.loading) return <Loading label="Loading the last hour…" />;
  if (history.error !== undefined) return <ErrorNotice error={history.error} title="Could not load the history" />;
  return <RateChart buckets={history.buckets} lines={lines} testId={testId} />;
}
