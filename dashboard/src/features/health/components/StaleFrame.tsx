import type { ReactNode } from 'react';
import { useReachability } from './ReachabilityProvider';

/** The page, greyed while the broker does not answer: what it shows is from before. */
export function StaleFrame({ children }: { children: ReactNode }) {
  const stale = useReachability().state === 'unreachable';
  return (
    <div data-stale={String(stale)} className={stale ? 'opacity-60 saturate-50 transition-opacity' : undefined}>
      {children}
    </div>
  );
}
