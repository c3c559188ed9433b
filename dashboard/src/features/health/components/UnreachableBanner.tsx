import { formatClock } from '../../../lib/format';
import { useReachability } from './ReachabilityProvider';

/** Said at the top of every page while the broker does not answer: what is shown is old. */
export function UnreachableBanner() {
  const reachability = useReachability();
  if (reachability.state === 'reachable') return null;
  const what = reachability.problem === 'broker' ? 'The broker is unreachable.' : 'The broker cannot reach its database.';
  return (
    <div role="alert" data-testid="unreachable" className="mb-5 flex items-start gap-3 rounded-lg bg-rose-600 px-4 py-3 text-sm text-white shadow-sm">
      <span className="mt-1 size-2.5 shrink-0 animate-pulse rounded-full bg-white" aria-hidden />
      <p>
        <strong className="font-semibold">{what}</strong> The numbers on this page are stale: last heard from the broker at{' '}
        {formatClock(new Date(reachability.lastHeardAt).toISOString())}. Trying again every few seconds…
      </p>
    </div>
  );
}
