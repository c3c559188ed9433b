import { formatClock, formatCount } from '../../../lib/format';
import { Empty } from '../../../lib/ui/States';
import { EVENTS_DROPPED } from '@miniqueue/sdk';
import { describeRow, shortenIds, type FeedRow } from '../api/feedRows';

const TYPE_COLOURS: Record<string, string> = {
  CREATED: 'bg-violet-50 text-violet-700 ring-violet-200',
  PUBLISHED: 'bg-indigo-50 text-indigo-700 ring-indigo-200',
  CONSUMED: 'bg-sky-50 text-sky-700 ring-sky-200',
  ACKED: 'bg-emerald-50 text-emerald-700 ring-emerald-200',
  NACKED: 'bg-amber-50 text-amber-800 ring-amber-200',
  REDELIVERED: 'bg-orange-50 text-orange-700 ring-orange-200',
  DEAD: 'bg-rose-50 text-rose-700 ring-rose-200',
  REPLAYED: 'bg-teal-50 text-teal-700 ring-teal-200',
  [EVENTS_DROPPED]: 'bg-slate-100 text-slate-700 ring-slate-300',
};

export const eventTypeLabel = (type: string): string => (type === EVENTS_DROPPED ? 'DROPPED' : type);

export function EventType({ type }: { type: string }) {
  const colours = TYPE_COLOURS[type] ?? 'bg-slate-50 text-slate-700 ring-slate-200';
  return (
    <span className={`inline-flex w-24 shrink-0 justify-center rounded px-1.5 py-0.5 text-[11px] font-semibold tracking-wide ring-1 ring-inset ${colours}`}>
      {eventTypeLabel(type)}
    </span>
  );
}

/**
 * The feed, newest first. `compact` (the overview's side card) names the queue first and
 * shortens message ids, so a narrow row still says where it happened.
 */
export function FeedList({ rows, compact = false }: { rows: FeedRow[]; compact?: boolean }) {
  if (rows.length === 0) {
    return <Empty title="No activity yet">Events appear here as soon as the broker reports them.</Empty>;
  }
  return (
    <ol className="divide-y divide-slate-100" data-testid="feed">
      {rows.map((row) => (
        <li
          key={row.key}
          className={`flex flex-wrap items-start gap-x-3 gap-y-1 py-2 text-sm sm:flex-nowrap ${row.eventType === EVENTS_DROPPED ? 'bg-slate-50' : ''}`}
          data-event-type={row.eventType}
          data-count={row.count}
          data-queue={row.queueName ?? undefined}
        >
          <time dateTime={row.timestamp} className="w-20 shrink-0 pt-0.5 font-mono text-xs tabular-nums text-slate-500">
            {formatClock(row.timestamp)}
          </time>
          <EventType type={row.eventType} />
          {row.events > 1 && (
            <span
              className="shrink-0 rounded bg-slate-100 px-1.5 py-0.5 text-xs font-semibold tabular-nums text-slate-700"
              title={`${row.events} events in this second`}
            >
              ×{formatCount(row.count)}
            </span>
          )}
          {compact ? <CompactText row={row} /> : <FullText row={row} />}
        </li>
      ))}
    </ol>
  );
}

function CompactText({ row }: { row: FeedRow }) {
  return (
    <span className="min-w-0 flex-1 text-slate-700" title={describeRow(row)}>
      {row.queueName && <span className="mr-1.5 font-medium text-slate-900">{row.queueName}</span>}
      <span className="break-words text-slate-600">
        {row.events === 1 || !row.queueName ? shortenIds(describeRow(row)) : `${formatCount(row.count)} messages`}
      </span>
    </span>
  );
}

function FullText({ row }: { row: FeedRow }) {
  if (row.events === 1) return <span className="min-w-0 flex-1 break-words text-slate-700">{describeRow(row)}</span>;
  return (
    <details className="min-w-0 flex-1 text-slate-700">
      <summary className="cursor-pointer break-words">{describeRow(row)}</summary>
      <ul className="mt-1 space-y-0.5 font-mono text-xs text-slate-500">
        {row.details.map((detail, index) => (
          <li key={index} className="break-all">
            {detail}
          </li>
        ))}
        {row.events > row.details.length && <li>… and {formatCount(row.events - row.details.length)} more</li>}
      </ul>
    </details>
  );
}
