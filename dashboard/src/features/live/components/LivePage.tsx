import { useMemo, useState } from 'react';
import { Card, PageHeader } from '../../../lib/ui/Card';
import { Button } from '../../../lib/ui/Button';
import { FEED_LIMIT } from '../api/events';
import { ConnectionIndicator } from './ConnectionIndicator';
import { FeedList } from './FeedList';
import { useMonitor } from './MonitorProvider';

export function LivePage() {
  const { events, status, detail } = useMonitor();
  const [queue, setQueue] = useState('');
  const [paused, setPaused] = useState<typeof events | null>(null);
  const shown = paused ?? events;
  const queues = useMemo(() => [...new Set(events.map((event) => event.queueName).filter((name): name is string => !!name))].sort(), [events]);
  const filtered = queue ? shown.filter((event) => event.queueName === queue) : shown;

  return (
    <>
      <PageHeader
        title="Live activity"
        description={`Every state change as the broker commits it: the latest ${FEED_LIMIT} events, newest first.`}
        actions={<ConnectionIndicator />}
      />
      {status === 'reconnecting' && (
        <p role="status" className="mb-4 rounded-md bg-amber-50 px-4 py-2 text-sm text-amber-900 ring-1 ring-amber-200">
          The live feed is disconnected{detail ? ` (${detail})` : ''}. Reconnecting automatically… If it never connects, the broker may
          not accept live connections from this address: add <code className="font-mono">{window.location.origin}</code> to its{' '}
          <code className="font-mono">CORS_ALLOWED_ORIGINS</code>.
        </p>
      )}
      <Card
        title={paused ? 'Paused' : 'Events'}
        actions={
          <>
            <label className="flex items-center gap-2 text-sm text-slate-600">
              Queue
              <select value={queue} onChange={(event) => setQueue(event.target.value)} className="min-w-0 max-w-48 truncate rounded-md border-0 py-1 pl-2 pr-7 text-sm ring-1 ring-inset ring-slate-300">
                <option value="">All</option>
                {queues.map((name) => (
                  <option key={name}>{name}</option>
                ))}
              </select>
            </label>
            <Button variant="secondary" size="sm" onClick={() => setPaused(paused ? null : events)}>
              {paused ? 'Resume' : 'Pause'}
            </Button>
          </>
        }
      >
        <FeedList events={filtered} />
      </Card>
    </>
  );
}
