import type { QueueStats } from '@miniqueue/sdk';
import { formatAge } from '../../../../lib/format';
import { CountTile } from '../../../../lib/ui/CountTile';
import { attentionOf } from '../../../attention/api/conditions';
import { AttentionBadges } from '../../../attention/components/AttentionBadges';
import { COUNT_COLUMNS } from '../columns';

/** The queue's messages by status, and what needs attention. */
export function QueueCounts({ row }: { row: QueueStats }) {
  const attention = attentionOf(row);
  return (
    <div className="space-y-3">
      {attention.length > 0 && (
        <div className="flex flex-wrap items-center gap-2 rounded-lg bg-rose-50 px-3 py-2 ring-1 ring-rose-200" data-testid="queue-attention">
          <span className="text-sm font-semibold text-rose-900">Needs attention:</span>
          <AttentionBadges attention={attention} />
        </div>
      )}
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5" data-testid="queue-counts">
        {COUNT_COLUMNS.map((column) => (
          <CountTile key={column.key} status={column.status} label={column.label} value={row[column.key]} />
        ))}
        <div className="col-span-2 rounded-lg bg-white p-3 shadow-xs ring-1 ring-slate-200 sm:col-span-1">
          <dt className="text-xs font-medium text-slate-600">Oldest pending</dt>
          <dd className="mt-0.5 text-2xl font-semibold tabular-nums text-slate-700">{row.pending > 0 ? formatAge(row.oldest_pending_age_seconds) : '—'}</dd>
        </div>
      </dl>
    </div>
  );
}
