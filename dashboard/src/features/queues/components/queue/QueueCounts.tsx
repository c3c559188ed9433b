import { useSession } from '../../../../app/session';
import { formatAge } from '../../../../lib/format';
import { CountTile } from '../../../../lib/ui/CountTile';
import { useResource } from '../../../../lib/useResource';
import { useRefreshOnActivity } from '../../../live/components/MonitorProvider';
import { loadQueueStats } from '../../api/queues';
import { COUNT_COLUMNS } from '../columns';

/** The queue's messages by status, refreshed as the broker reports activity. */
export function QueueCounts({ queue }: { queue: string }) {
  const { mq } = useSession();
  const stats = useResource((signal) => loadQueueStats(mq, signal), [mq]);
  useRefreshOnActivity(stats.reload);
  const row = stats.data?.find((entry) => entry.queue === queue);
  if (!row) return null;
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5" data-testid="queue-counts">
      {COUNT_COLUMNS.map((column) => (
        <CountTile key={column.key} status={column.status} label={column.label} value={row[column.key]} />
      ))}
      <div className="col-span-2 rounded-lg bg-white p-3 shadow-xs ring-1 ring-slate-200 sm:col-span-1">
        <dt className="text-xs font-medium text-slate-600">Oldest pending</dt>
        <dd className="mt-0.5 text-2xl font-semibold tabular-nums text-slate-700">{row.pending > 0 ? formatAge(row.oldest_pending_age_seconds) : '—'}</dd>
      </div>
    </dl>
  );
}
