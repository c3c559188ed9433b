import { useState } from 'react';
import { Card } from '../../../lib/ui/Card';
import { ErrorNotice, Loading } from '../../../lib/ui/States';
import { useRateSeries } from '../api/useRateSeries';
import { DEFAULT_WINDOW } from '../api/windows';
import { DepthChart } from './DepthChart';
import { RateChart, type ChartLine } from './RateChart';
import { WindowPicker } from './WindowPicker';

/**
 * A card of the broker's (or one queue's) rates, and of its depth when asked, loaded from its
 * history and kept current, over the window the reader picks.
 */
export function RateHistoryChart({
  title,
  queue,
  lines,
  testId,
  depthTestId,
  currentDepth,
  className,
}: {
  title: string;
  queue?: string;
  lines: ChartLine[];
  testId?: string;
  depthTestId?: string;
  /** The depth now (the queue's pending count): the depth chart's last point. */
  currentDepth?: number;
  className?: string;
}) {
  const [window, setWindow] = useState(DEFAULT_WINDOW);
  const history = useRateSeries(queue, window);
  return (
    <Card title={title} className={className} actions={<WindowPicker value={window} onChange={setWindow} label={`Span of ${title.toLowerCase()}`} />}>
      {history.loading && <Loading label={`Loading ${window.phrase}…`} />}
      {history.error !== undefined && <ErrorNotice error={history.error} title="Could not load the history" />}
      {!history.loading && history.error === undefined && (
        <div className="space-y-6">
          <RateChart buckets={history.buckets} lines={lines} window={window} testId={testId} />
          {depthTestId && <DepthChart buckets={history.buckets} window={window} testId={depthTestId} current={currentDepth} />}
        </div>
      )}
    </Card>
  );
}
