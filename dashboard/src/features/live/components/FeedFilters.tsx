import { EVENT_TYPES, type FeedFilter } from '../api/feedRows';
import { eventTypeLabel } from './FeedList';

const SELECT = 'min-w-0 max-w-44 truncate rounded-md border-0 py-1 pl-2 pr-7 text-sm ring-1 ring-inset ring-slate-300';

/** Which rows of the feed to show: one event type, one queue, or all. */
export function FeedFilters({ filter, queues, onChange }: { filter: FeedFilter; queues: string[]; onChange: (filter: FeedFilter) => void }) {
  return (
    <>
      <label className="flex min-w-0 items-center gap-2 text-sm text-slate-600">
        Event
        <select value={filter.eventType ?? ''} onChange={(event) => onChange({ ...filter, eventType: event.target.value || undefined })} className={SELECT}>
          <option value="">All</option>
          {EVENT_TYPES.map((type) => (
            <option key={type} value={type}>
              {eventTypeLabel(type)}
            </option>
          ))}
        </select>
      </label>
      <label className="flex min-w-0 items-center gap-2 text-sm text-slate-600">
        Queue
        <select value={filter.queue ?? ''} onChange={(event) => onChange({ ...filter, queue: event.target.value || undefined })} className={SELECT}>
          <option value="">All</option>
          {queues.map((name) => (
            <option key={name}>{name}</option>
          ))}
        </select>
      </label>
    </>
  );
}
