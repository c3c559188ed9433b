import type { QueueStats } from '@miniqueue/sdk';
import type { Sort } from '../api/queueTable';
import { QUEUE_COLUMNS, type QueueSortKey } from './queueColumns';

/** The queue list as a table, for screens wide enough for every column. */
export function QueueTable({ rows, sort, onSort }: { rows: QueueStats[]; sort: Sort<QueueSortKey>; onSort: (key: QueueSortKey) => void }) {
  return (
    <table className="hidden w-full table-fixed text-sm xl:table" data-testid="queue-table">
      <colgroup>
        {QUEUE_COLUMNS.map((column) => (
          <col key={column.key} className={column.key === 'queue' ? 'w-[24%]' : column.key === 'depth' ? 'w-24' : ''} />
        ))}
      </colgroup>
      <thead className="border-b border-slate-100 bg-slate-50 text-xs font-semibold text-slate-500">
        <tr>
          {QUEUE_COLUMNS.map((column) => {
            const sorted = sort.key === column.key;
            const align = column.align === 'left' ? 'text-left' : 'text-right';
            return (
              <th key={column.key} data-key={column.key} scope="col" className={`whitespace-nowrap px-2 py-2.5 first:pl-4 ${align}`} title={column.meaning} aria-sort={sorted ? (sort.direction === 'asc' ? 'ascending' : 'descending') : undefined}>
                {column.value ? (
                  <button type="button" onClick={() => onSort(column.key as QueueSortKey)} className={`inline-flex items-center gap-1 hover:text-slate-900 ${sorted ? 'text-slate-900' : ''}`}>
                    <span data-label>{column.label}</span>
                    <span aria-hidden className="w-2">
                      {sorted ? (sort.direction === 'asc' ? '▲' : '▼') : ''}
                    </span>
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
          <tr key={row.queue} data-queue={row.queue} className="hover:bg-slate-50/70">
            {QUEUE_COLUMNS.map((column) => (
              // Numbers end where their header's label does: the header's sort arrow and its gap take 0.75 rem.
              <td key={column.key} data-key={column.key} className={`py-2.5 pl-2 align-middle first:pl-4 ${column.align === 'left' ? 'pr-2 text-left' : column.value ? 'pr-5 text-right' : 'pr-2 text-right'}`}>
                {column.key === 'depth' ? <span className="inline-flex justify-end">{column.render(row)}</span> : column.render(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
