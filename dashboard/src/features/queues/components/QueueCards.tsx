import type { QueueStats } from '@miniqueue/sdk';
import { needsAttention } from '../../attention/api/conditions';
import { QUEUE_COLUMNS } from './queueColumns';

const [NAME, ...FACTS] = QUEUE_COLUMNS;
const DEPTH = FACTS.find((column) => column.key === 'depth')!;
const NUMBERS = FACTS.filter((column) => column !== DEPTH);

/** The queue list on narrower screens: one card per queue, its numbers in labelled cells. */
export function QueueCards({ rows }: { rows: QueueStats[] }) {
  return (
    <ul className="grid gap-3 sm:grid-cols-2 xl:hidden" aria-label="Queues">
      {rows.map((row) => (
        <li
          key={row.queue}
          data-queue={row.queue}
          data-flagged={needsAttention(row)}
          className={`rounded-lg bg-white p-3 shadow-xs ${needsAttention(row) ? 'ring-2 ring-rose-300' : 'ring-1 ring-slate-200'}`}
        >
          <div className="flex items-start justify-between gap-3">
            {NAME.render(row)}
            {DEPTH.render(row)}
          </div>
          <dl className="mt-2 grid grid-cols-3 gap-x-3 gap-y-2 text-sm">
            {NUMBERS.map((column) => (
              <div key={column.key} className="min-w-0">
                <dt className="truncate text-xs text-slate-500">{column.longLabel ?? column.label}</dt>
                <dd>{column.render(row)}</dd>
              </div>
            ))}
          </dl>
        </li>
      ))}
    </ul>
  );
}
