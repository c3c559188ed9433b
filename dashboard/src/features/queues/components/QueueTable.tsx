import type { QueueStats } from '@miniqueue/sdk';
import { needsAttention } from '../../attention/api/conditions';
import type { Sort } from '../api/queueTable';
import { QUEUE_COLUMNS, type QueueSortKey } from './queueColumns';

/** The queue list as a table, for screens wide enough for every column. */
export function QueueTable({ rows, sort, onSort }: { rows: QueueStats[]; sort: Sort<QueueSortKey>; onSort: (key: QueueSortKey) => void }) {
  return (
    <table className="hidden w-full table-fixed text-sm xl:table" data-testid="queue-table">
      <colgroup>
        {QUEUE_COLUMNS.map((column) => (
          <col key={column.key} className={column.key === 'queue' ? 'w-[18%]' : column.key === 'depth' ? 'w-28' : ''} />
        ))}
      </colgroup>
      <thead className="border-b border-slate-100 bg-slate-50 text-xs font-semibold text-slate-500">
        <tr>
          {QUEUE_COLUMNS.map((column) => {
            const sorted = sort.key === column.key;
            const align = column.align === 'left' ? 'text-left' : 'text-right';
            return (
              <th
                key={column.key}
                data-key={column.key}
                scope="col"
                className={`whitespace-nowrap px-2 py-2.5 first:pl-4 last:pr-4 ${align}`}
                title={column.meaning}
                aria-sort={sorted ? (sort.direction === 'asc' ? 'ascending' : 'descending') : undefined}
              >
                {column.value ? (
                  <button
                    type="button"
                    onClick={() => onSort(column.key as QueueSortKey)}
                    className={`inline-flex items-center gap-1 hover:text-slate-900 ${sorted ? 'text-slate-900' : ''}`}
                  >
                    {/* The arrow sits on the side away from the numbers, so a label ends where its numbers do. */}
                    {column.align !== 'left' && <SortArrow sort={sorted ? sort.direction : null} />}
                    <span data-label>{column.label}</span>
                    {column.align === 'left' && <SortArrow sort={sorted ? sort.direction : null} />}
                  </button>
                ) : (
                  <span data-label>{column.label}</span>
                )}
              </th>
            );
          })}
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {rows.map((row) => (
          <tr
            key={row.queue}
            data-queue={row.queue}
            data-flagged={needsAttention(row)}
            className={needsAttention(row) ? 'bg-rose-50/40 shadow-[inset_3px_0_0_var(--color-rose-500)]' : 'hover:bg-slate-50/70'}
          >
            {QUEUE_COLUMNS.map((column) => (
              <td
                key={column.key}
                data-key={column.key}
                className={`px-2 py-2.5 align-middle first:pl-4 last:pr-4 ${column.align === 'left' ? 'text-left' : 'text-right'}`}
              >
                {column.key === 'depth' ? <span className="inline-flex justify-end">{column.render(row)}</span> : column.render(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function SortArrow({ sort }: { sort: 'asc' | 'desc' | null }) {
  return (
    <span aria-hidden className="w-2 text-[10px]">
      {sort === 'asc' ? '▲' : sort === 'desc' ? '▼' : ''}
    </span>
  );
}
