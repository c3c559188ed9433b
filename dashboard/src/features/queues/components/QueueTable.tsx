import type { QueueStats } from '@miniqueue/sdk';
import type { Sort } from '../api/queueTable';
import { QUEUE_COLUMNS, type QueueSortKey } from './queueColumns';

/** The queue list as a table, for screens wide enough for every column. */
export function QueueTable({ rows, sort, onSort }: { rows: QueueStats[]; sort: Sort<QueueSortKey>; onSort: (key: QueueSortKey) => void }) {
  return (
    <table className="hidden w-full table-fixed text-sm xl:table" data-testid="queue-table">
      <colgroup>
        {QUEUE_COLUMNS.map((column) => (
          <col key={column.key} className={column.key === 'queue' ? 'w-[22%]' : column.key === 'depth' ? 'w-28' : ''} />
        ))}
      </colgroup>
      <thead className="border-b border-slate-100 bg-slate-50 text-xs font-semibold uppercase tracking-wide text-slate-500">
        <tr>
          {QUEUE_COLUMNS.map((column) => {
            const sorted = sort.key === column.key;
            const align = column.align === 'left' ? 'text-left' : 'text-right';
            return (
              <th key={column.key} scope="col" className={`px-3 py-2.5 ${align}`} title={column.meaning} aria-sort={sorted ? (sort.direction === 'asc' ? 'ascending' : 'descending') : undefined}>
                {column.value ? (
                  <button type="button" onClick={() => onSort(column.key as QueueSortKey)} className={`inline-flex items-center gap-1 uppercase hover:text-slate-900 ${sorted ? 'text-slate-900' : ''}`}>
                    {column.label}
                    <span aria-hidden className="w-2">
                      {sorted ? (sort.direction === 'asc' ? '▲' : '▼') : ''}
                    </span>
                  </button>
                ) : (
                  column.label
                )}
              </th>
            );
          })}
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {rows.map((row) => (
          <tr key={row.queue} data-queue={row.queue} className="hover:bg-slate-50/70">
            {QUEUE_COLUMNS.map((column) => (
              // The right padding of numbers matches the header's, whose arrow takes the last 0.75 rem.
              <td key={column.key} className={`px-3 py-2.5 align-middle ${column.align === 'left' ? 'text-left' : 'pr-6 text-right'} ${column.key === 'depth' ? 'pr-3' : ''}`}>
                {column.key === 'depth' ? <span className="inline-flex justify-end">{column.render(row)}</span> : column.render(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
