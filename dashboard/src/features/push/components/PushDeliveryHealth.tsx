import { useEffect } from 'react';
import type { PushEndpoint } from '@miniqueue/sdk';
import { useSession } from '../../../app/session';
import { formatCount, formatTime } from '../../../lib/format';
import { useResource } from '../../../lib/useResource';
import { THRESHOLDS } from '../../attention/api/conditions';

/** How often the delivery state is read again while the tab is open (the broker stores it every second). */
const REFRESH_MS = 5_000;

type Health = Pick<PushEndpoint, 'consecutive_failures' | 'last_error' | 'last_error_at' | 'last_success_at'>;

/**
 * How the endpoint's deliveries are going: failing (how many in a row, the last error and when),
 * or working (the last success), read again every few seconds, apart from the settings form so
 * that a refresh never overwrites an edit in progress.
 */
export function PushDeliveryHealth({ queue, initial }: { queue: string; initial: Health }) {
  const { mq } = useSession();
  const fresh = useResource((signal) => mq.push.get(queue, { signal }), [mq, queue]);
  const { reload } = fresh;
  useEffect(() => {
    const timer = setInterval(reload, REFRESH_MS);
    return () => clearInterval(timer);
  }, [reload]);
  const health = fresh.data ?? initial;
  const failing = health.consecutive_failures > 0;
  const serious = health.consecutive_failures >= THRESHOLDS.push.consecutiveFailures;
  return (
    <dl
      data-testid="push-health"
      data-failing={failing}
      className={`mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 rounded px-3 py-2 text-sm ring-1 ring-inset ${
        serious ? 'bg-rose-50 text-rose-900 ring-rose-200' : failing ? 'bg-amber-50 text-amber-900 ring-amber-200' : 'bg-slate-50 text-slate-700 ring-slate-200'
      }`}
    >
      <dt className="font-medium">Deliveries</dt>
      <dd>{failing ? `failing: ${formatCount(health.consecutive_failures)} in a row` : health.last_success_at ? 'working' : 'none yet'}</dd>
      <dt className="font-medium">Last error</dt>
      <dd className="break-all">{health.last_error ? `${health.last_error}, ${formatTime(health.last_error_at)}` : 'none'}</dd>
      <dt className="font-medium">Last success</dt>
      <dd>{formatTime(health.last_success_at)}</dd>
    </dl>
  );
}
