import { formatClock } from '../../../lib/format';
import { Empty } from '../../../lib/ui/States';
import { EVENTS_DROPPED, type MonitorEvent } from '@miniqueue/sdk';

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

export function EventType({ type }: { type: string }) {
  const colours = TYPE_COLOURS[type] ?? 'bg-slate-50 text-slate-700 ring-slate-200';
  return (
    <span className={`inline-flex w-24 shrink-0 justify-center rounded px-1.5 py-0.5 text-[11px] font-semibold tracking-wide ring-1 ring-inset ${colours}`}>
      {type === EVENTS_DROPPED ? 'DROPPED' : type}
    </span>
  );
}

export function FeedList({ events, compact = false }: { events: MonitorEvent[]; compact?: boolean }) {
  if (events.length === 0) {
    return <Empty title="No activity yet">Events appear here as soon as the broker reports them.</Empty>;
  }
  return (
    <ol className="divide-y divide-slate-100" data-testid="feed">
      {events.map((event, index) => (
        <li
          key={`${event.timestamp}-${index}-${event.detail}`}
          className={`flex flex-wrap items-start gap-x-3 gap-y-1 py-2 text-sm sm:flex-nowrap ${event.eventType === EVENTS_DROPPED ? 'bg-slate-50' : ''}`}
          data-event-type={event.eventType}
        >
          <time dateTime={event.timestamp} className="w-20 shrink-0 pt-0.5 font-mono text-xs tabular-nums text-slate-500">
            {formatClock(event.timestamp)}
          </time>
          <EventType type={event.eventType} />
          <span className={`min-w-0 flex-1 break-words text-slate-700 ${compact ? 'line-clamp-2' : ''}`}>
            {event.eventType === EVENTS_DROPPED ? `${event.detail}: the feed could not keep up, so some events were skipped. Counts stay exact.` : event.detail}
          </span>
        </li>
      ))}
    </ol>
  );
}
