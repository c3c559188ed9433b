import type { QueueStats } from '@miniqueue/sdk';
import { useSession } from '../../../app/session';
import { formatAge, formatCount } from '../../../lib/format';
import { navigate, usePath, Link } from '../../../lib/router';
import { PageHeader } from '../../../lib/ui/Card';
import { Empty, ErrorNotice, Loading } from '../../../lib/ui/States';
import { STATUS_COLOURS, type StatusName } from '../../../lib/ui/Status';
import { useResource } from '../../../lib/useResource';
import { useRefreshOnActivity } from '../../live/components/MonitorProvider';
import { loadQueueStats } from '../api/queues';
import { QueueMessages } from './QueueMessages';
import { HistoryReplay } from '../../history-replay/components/HistoryReplay';
import { PushSettings } from '../../push/components/PushSettings';

const COLUMNS: { key: 'pending' | 'unacked' | 'acked' | 'dead'; label: string; status: StatusName }[] = [
  { key: 'pending', label: 'Pending', status: 'PENDING' },
  { key: 'unacked', label: 'Unacked', status: 'UNACKED' },
  { key: 'acked', label: 'Acked', status: 'ACKED' },
  { key: 'dead', label: 'Dead', status: 'DEAD' },
];

export function QueuesPage() {
  const { mq, admin } = useSession();
  const { search } = usePath();
  const selected = search.get('queue');
  const stats = useResource((signal) => loadQueueStats(mq, signal), [mq]);
  useRefreshOnActivity(stats.reload);

  const toggle = (queue: string) => navigate(selected === queue ? '/queues' : `/queues?queue=${encodeURIComponent(queue)}`, { replace: true });

  return (
    <>
      <PageHeader title="Queues" description="Messages per queue by status. Select a queue to page through its messages." />
      {stats.loading && <Loading />}
      {stats.error !== undefined && <ErrorNotice error={stats.error} onRetry={stats.reload} />}
      {stats.data?.length === 0 && (
        <Empty title="No queues yet">
          {admin ? (
            <>
              Create a topic and bind a queue to it on{' '}
              <Link href="/topics" className="font-medium text-indigo-700 underline">
                Topics &amp; queues
              </Link>
              .
            </>
          ) : (
            'An administrator creates topics and queues.'
          )}
        </Empty>
      )}
      {stats.data && stats.data.length > 0 && (
        <div className="rounded-lg bg-white shadow-xs ring-1 ring-slate-200" data-testid="queue-table">
          <div aria-hidden className={`${GRID} hidden border-b border-slate-100 bg-slate-50 px-4 py-2.5 text-xs font-semibold uppercase tracking-wide text-slate-500 sm:grid`}>
            <span>Queue</span>
            <span className="hidden md:block">Topic</span>
            {COLUMNS.map((column) => (
              <span key={column.key} className="inline-flex items-center justify-end gap-1.5">
                <span className={`size-2 rounded-full ${STATUS_COLOURS[column.status].bar}`} />
                {column.label}
              </span>
            ))}
            <span className="text-right">Oldest pending</span>
          </div>
          <ul className="divide-y divide-slate-100" aria-label="Queues">
            {stats.data.map((row) => (
              <li key={row.queue} data-queue={row.queue}>
                <QueueRow row={row} expanded={selected === row.queue} onToggle={() => toggle(row.queue)} />
                {selected === row.queue && (
                  <div className="border-t border-slate-100 bg-slate-50/70">
                    <QueueMessages queue={row.queue} />
                    <HistoryReplay queue={row.queue} />
                    <PushSettings queue={row.queue} />
                  </div>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
    </>
  );
}

/**
 * A grid rather than a table: on a phone each queue folds into a name line and four counts, and
 * its messages open at full width underneath instead of inside a sideways-scrolling table.
 */
const GRID = 'sm:grid-cols-[minmax(0,2fr)_repeat(4,minmax(0,1fr))_minmax(0,1.2fr)] md:grid-cols-[minmax(0,2fr)_minmax(0,1.5fr)_repeat(4,minmax(0,1fr))_minmax(0,1.2fr)]';

function QueueRow({ row, expanded, onToggle }: { row: QueueStats; expanded: boolean; onToggle: () => void }) {
  return (
    <div className={`grid grid-cols-4 items-center gap-x-3 gap-y-2 px-4 py-3 text-sm sm:gap-y-0 ${GRID} ${expanded ? 'bg-indigo-50/40' : ''}`}>
      <div className="col-span-4 min-w-0 sm:col-span-1">
        <button
          type="button"
          onClick={onToggle}
          aria-expanded={expanded}
          className="inline-flex max-w-full items-center gap-1.5 rounded text-left font-medium text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          <svg viewBox="0 0 20 20" aria-hidden className={`size-4 shrink-0 transition-transform ${expanded ? 'rotate-90' : ''}`} fill="currentColor">
            <path fillRule="evenodd" d="M7.2 14.8a.75.75 0 0 1 0-1.06L10.94 10 7.2 6.26a.75.75 0 1 1 1.06-1.06l4.27 4.27a.75.75 0 0 1 0 1.06l-4.27 4.27a.75.75 0 0 1-1.06 0Z" clipRule="evenodd" />
          </svg>
          <span className="break-all">{row.queue}</span>
        </button>
        <span className="block pl-5.5 text-xs text-slate-500 md:hidden">
          topic {row.topic}
          {row.pending > 0 && <span className="sm:hidden"> · oldest pending {formatAge(row.oldest_pending_age_seconds)}</span>}
        </span>
      </div>
      <span className="hidden truncate text-slate-600 md:block">{row.topic}</span>
      {COLUMNS.map((column) => (
        <span key={column.key} className="flex flex-col items-start sm:items-end">
          <span className="text-xs text-slate-500 sm:sr-only">{column.label}</span>
          <span data-column={column.key} className={`font-semibold tabular-nums ${row[column.key] > 0 ? STATUS_COLOURS[column.status].text : 'text-slate-300'}`}>
            {formatCount(row[column.key])}
          </span>
        </span>
      ))}
      <span className="hidden text-right tabular-nums text-slate-600 sm:block">
        <span className="sr-only">Oldest pending: </span>
        {row.pending > 0 ? formatAge(row.oldest_pending_age_seconds) : '—'}
      </span>
    </div>
  );
}
