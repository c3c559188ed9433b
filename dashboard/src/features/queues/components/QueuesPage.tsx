import { useEffect, useState } from 'react';
import { useSession } from '../../../app/session';
import { formatCount } from '../../../lib/format';
import { Link, navigate, usePath } from '../../../lib/router';
import { PageHeader } from '../../../lib/ui/Card';
import { Empty, ErrorNotice, Loading } from '../../../lib/ui/States';
import { needsAttention } from '../../attention/api/conditions';
import { useQueueStatsLive } from '../../attention/api/useQueueStatsLive';
import { filterByName, nextSort, sortRows, type Sort } from '../api/queueTable';
import { QueueCards } from './QueueCards';
import { QUEUE_COLUMNS, queueHref, type QueueSortKey } from './queueColumns';
import { QueueTable } from './QueueTable';

const SORTABLE = QUEUE_COLUMNS.filter((column) => column.value);
const CONTROL = 'rounded-md border-0 py-1.5 pl-2 text-sm ring-1 ring-inset ring-slate-300';

export function QueuesPage() {
  const { admin } = useSession();
  const { search } = usePath();
  const stats = useQueueStatsLive();
  const [filter, setFilter] = useState('');
  const [onlyFlagged, setOnlyFlagged] = useState(search.get('attention') === '1');
  const [sort, setSort] = useState<Sort<QueueSortKey>>({ key: 'queue', direction: 'asc' });

  // The former address of a queue's messages, /queues?queue=x, leads to its page.
  const legacy = search.get('queue');
  useEffect(() => {
    if (legacy) navigate(queueHref(legacy), { replace: true });
  }, [legacy]);

  const column = QUEUE_COLUMNS.find((candidate) => candidate.key === sort.key)!;
  const flaggedCount = (stats.data ?? []).filter((row) => needsAttention(row)).length;
  const named = filterByName(stats.data ?? [], filter);
  const rows = sortRows(onlyFlagged ? named.filter((row) => needsAttention(row)) : named, column.value!, sort.direction);
  const onSort = (key: QueueSortKey) => setSort(nextSort(sort, key, key === 'queue'));

  return (
    <>
      <PageHeader
        title="Queues"
        description="Every queue: what waits, how fast messages come in, go out and are acknowledged (per second, over the last 5 minutes: the window of the attention flags), and who consumes. Open a queue for its settings, charts and messages."
      />
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
        <>
          <div className="mb-3 flex flex-wrap items-center gap-3">
            <input
              type="search"
              value={filter}
              onChange={(event) => setFilter(event.target.value)}
              placeholder="Filter by queue or topic"
              aria-label="Filter queues"
              className={`${CONTROL} w-full pr-2 sm:w-72`}
            />
            <label className="flex items-center gap-2 text-sm text-slate-600 xl:hidden">
              Sort by
              <select value={`${sort.key}:${sort.direction}`} onChange={(event) => setSort(parseSort(event.target.value))} className={`${CONTROL} pr-7`}>
                {SORTABLE.flatMap((option) => [
                  <option key={`${option.key}:asc`} value={`${option.key}:${option.key === 'queue' ? 'asc' : 'desc'}`}>
                    {option.label} {option.key === 'queue' ? 'A–Z' : '(most first)'}
                  </option>,
                  <option key={`${option.key}:desc`} value={`${option.key}:${option.key === 'queue' ? 'desc' : 'asc'}`}>
                    {option.label} {option.key === 'queue' ? 'Z–A' : '(least first)'}
                  </option>,
                ])}
              </select>
            </label>
            <label className={`flex items-center gap-2 text-sm ${flaggedCount > 0 ? 'font-medium text-rose-800' : 'text-slate-600'}`}>
              <input
                type="checkbox"
                checked={onlyFlagged}
                onChange={(event) => setOnlyFlagged(event.target.checked)}
                className="size-4 rounded border-slate-400"
              />
              Only those needing attention ({formatCount(flaggedCount)})
            </label>
            <span className="text-sm text-slate-600" aria-live="polite">
              {rows.length === stats.data.length
                ? `${formatCount(rows.length)} queues`
                : `${formatCount(rows.length)} of ${formatCount(stats.data.length)} queues`}
            </span>
          </div>
          {rows.length === 0 && <Empty title={onlyFlagged && !filter ? 'No queue needs attention' : `No queue or topic matches “${filter}”`} />}
          {rows.length > 0 && (
            <>
              <div className="hidden overflow-hidden rounded-lg bg-white shadow-xs ring-1 ring-slate-200 xl:block">
                <QueueTable rows={rows} sort={sort} onSort={onSort} />
              </div>
              <QueueCards rows={rows} />
            </>
          )}
        </>
      )}
    </>
  );
}

const parseSort = (value: string): Sort<QueueSortKey> => {
  const [key, direction] = value.split(':');
  return { key: key as QueueSortKey, direction: direction === 'desc' ? 'desc' : 'asc' };
};
