import type { QueueStats } from '@miniqueue/sdk';
import { formatCount } from '../../../lib/format';
import { Link } from '../../../lib/router';
import { queueHref } from '../../queues/components/queueColumns';
import { flaggedQueues } from '../api/conditions';
import { AttentionBadges } from './AttentionBadges';

/** The first answer of the Overview: which queues are in trouble and why, or that none is. */
export function NeedsAttention({ stats }: { stats: QueueStats[] }) {
  const flagged = flaggedQueues(stats);
  if (flagged.length === 0) {
    return (
      <p
        role="status"
        data-testid="attention"
        data-flagged="0"
        className="flex items-center gap-2 rounded-lg bg-emerald-50 px-4 py-3 text-sm text-emerald-900 ring-1 ring-emerald-200"
      >
        <span aria-hidden className="size-2 rounded-full bg-emerald-600" />
        {stats.length === 0
          ? 'No queues yet.'
          : `All ${formatCount(stats.length)} ${stats.length === 1 ? 'queue looks' : 'queues look'} healthy: consumers keep up, nothing waits too long, nothing is dying.`}
      </p>
    );
  }
  return (
    <section aria-labelledby="attention-title" data-testid="attention" data-flagged={flagged.length} className="rounded-lg bg-white ring-2 ring-rose-300">
      <h2 id="attention-title" className="flex items-center gap-2 border-b border-rose-100 bg-rose-50 px-4 py-2.5 text-sm font-semibold text-rose-900">
        <span aria-hidden className="size-2 rounded-full bg-rose-600" />
        {flagged.length === 1 ? '1 queue needs attention' : `${formatCount(flagged.length)} queues need attention`}
      </h2>
      <ul className="divide-y divide-slate-100">
        {flagged.slice(0, 8).map(({ row, attention }) => (
          <li key={row.queue} data-queue={row.queue} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-4 py-2.5">
            <Link href={queueHref(row.queue)} className="break-all font-medium text-indigo-700 hover:underline">
              {row.queue}
            </Link>
            <AttentionBadges attention={attention} />
          </li>
        ))}
      </ul>
      {flagged.length > 8 && (
        <p className="border-t border-slate-100 px-4 py-2 text-sm">
          <Link href="/queues?attention=1" className="font-medium text-indigo-700 hover:underline">
            All {formatCount(flagged.length)} on Queues
          </Link>
        </p>
      )}
    </section>
  );
}
