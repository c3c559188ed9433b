import { useMemo, useState } from 'react';
import { formatClock, formatCount } from '../../../lib/format';
import { Button } from '../../../lib/ui/Button';
import { Card, PageHeader } from '../../../lib/ui/Card';
import { FEED_ROWS_SHOWN, filterRows, type FeedFilter, type FeedRow } from '../api/feedRows';
import { FeedFilters } from './FeedFilters';
import { FeedList } from './FeedList';
import { useMonitor } from './MonitorProvider';

/** What the page froze when paused: the rows then, and how many events had arrived by then. */
interface Paused {
  rows: FeedRow[];
  received: number;
  at: string;
}

export function LivePage() {
  const { rows, received, status, detail } = useMonitor();
  const [filter, setFilter] = useState<FeedFilter>({});
  const [paused, setPaused] = useState<Paused | null>(null);
  const shown = paused?.rows ?? rows;
  const queues = useMemo(() => {
    const names = new Set(rows.map((row) => row.queueName).filter((name): name is string => !!name));
    if (filter.queue) names.add(filter.queue);
    return [...names].sort();
  }, [rows, filter.queue]);
  const filtered = filterRows(shown, filter).slice(0, FEED_ROWS_SHOWN);

  const togglePause = () => setPaused(paused ? null : { rows, received, at: new Date().toISOString() });

  return (
    <>
      {/* The feed's connection is shown once, in the top bar of every page. */}
      <PageHeader
        title="Live activity"
        description="Every state change as the broker commits it, newest first. Within a second, events of one type on one queue are summed into one row with their count."
      />
      {status === 'reconnecting' && (
        <p role="status" className="mb-4 rounded-md bg-amber-50 px-4 py-2 text-sm text-amber-900 ring-1 ring-amber-200">
          The live feed is disconnected{detail ? ` (${detail})` : ''}. Reconnecting automatically… If it never connects, the broker may not accept live
          connections from this address: add <code className="font-mono">{window.location.origin}</code> to its{' '}
          <code className="font-mono">CORS_ALLOWED_ORIGINS</code>.
        </p>
      )}
      <Card
        title={paused ? 'Paused' : 'Events'}
        actions={
          <>
            <FeedFilters filter={filter} queues={queues} onChange={setFilter} />
            <Button variant={paused ? 'primary' : 'secondary'} size="sm" onClick={togglePause} aria-pressed={!!paused}>
              {paused ? 'Resume' : 'Pause'}
            </Button>
          </>
        }
      >
        {paused && (
          <p role="status" className="mb-3 rounded-md bg-sky-50 px-3 py-2 text-sm text-sky-900 ring-1 ring-sky-200" data-testid="paused">
            Paused at {formatClock(paused.at)}: {formatCount(received - paused.received)} new {received - paused.received === 1 ? 'event' : 'events'} since.
            Resume to see them.
          </p>
        )}
        <FeedList rows={filtered} />
      </Card>
    </>
  );
}
