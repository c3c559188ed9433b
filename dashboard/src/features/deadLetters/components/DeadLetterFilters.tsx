import type { DeadReason, QueueStats } from '@miniqueue/sdk';
import { formatCount } from '../../../lib/format';
import { REASON_LABELS } from '../../queues/components/messages/DeathFacts';
import type { DeadLetterQuery } from '../api/deadLetters';

const SELECT = 'min-w-0 max-w-full truncate rounded-md border-0 py-1.5 pl-2 pr-7 text-sm ring-1 ring-inset ring-slate-300 sm:max-w-72';

/** Which dead letters to list: of one queue, of one kind of death. */
export function DeadLetterFilters({
  query,
  stats,
  onChange,
}: {
  query: DeadLetterQuery;
  stats: QueueStats[] | undefined;
  onChange: (query: DeadLetterQuery) => void;
}) {
  const totalDead = stats?.reduce((sum, row) => sum + row.dead, 0);
  return (
    <>
      <label className="flex min-w-0 max-w-full items-center gap-2 text-sm text-slate-700">
        Queue
        <select value={query.queue ?? ''} onChange={(event) => onChange({ ...query, queue: event.target.value || undefined })} className={SELECT}>
          <option value="">All queues{totalDead !== undefined ? ` (${formatCount(totalDead)})` : ''}</option>
          {stats?.map((row) => (
            <option key={row.queue} value={row.queue}>
              {row.queue} ({formatCount(row.dead)})
            </option>
          ))}
        </select>
      </label>
      <label className="flex min-w-0 max-w-full items-center gap-2 text-sm text-slate-700">
        Reason
        <select
          value={query.reason ?? ''}
          onChange={(event) => onChange({ ...query, reason: (event.target.value || undefined) as DeadReason | undefined })}
          className={SELECT}
        >
          <option value="">Any reason</option>
          {Object.entries(REASON_LABELS).map(([reason, label]) => (
            <option key={reason} value={reason}>
              {label}
            </option>
          ))}
        </select>
      </label>
    </>
  );
}
