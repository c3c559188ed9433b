import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { useSession } from '../../../app/session';
import { useMonitor } from '../../live/components/MonitorProvider';
import { problemOf, type Reachability } from '../api/reachability';

const ReachabilityContext = createContext<Reachability>({ state: 'reachable', lastHeardAt: Date.now() });

/** How often the broker's health is asked while the live feed is not open. */
const CHECK_MS = 3000;

/**
 * Whether the broker answers. An open live feed says it does; while the feed is down the broker's
 * health is asked every few seconds, because a feed refused (an origin not allowed) is not a
 * broker that is down.
 */
export function ReachabilityProvider({ children }: { children: ReactNode }) {
  const { mq } = useSession();
  const { status, received } = useMonitor();
  const [reachability, setReachability] = useState<Reachability>(() => ({ state: 'reachable', lastHeardAt: Date.now() }));

  useEffect(() => {
    if (status === 'open') setReachability({ state: 'reachable', lastHeardAt: Date.now() });
  }, [status, received]);

  useEffect(() => {
    if (status === 'open') return;
    const abort = new AbortController();
    const check = async () => {
      try {
        await mq.ops.health({ signal: abort.signal });
        if (!abort.signal.aborted) setReachability({ state: 'reachable', lastHeardAt: Date.now() });
      } catch (error) {
        const problem = problemOf(error);
        if (abort.signal.aborted || !problem) return;
        setReachability((previous) => ({ state: 'unreachable', problem, lastHeardAt: previous.lastHeardAt }));
      }
    };
    void check();
    const timer = setInterval(check, CHECK_MS);
    return () => {
      abort.abort();
      clearInterval(timer);
    };
  }, [status, mq]);

  return <ReachabilityContext.Provider value={reachability}>{children}</ReachabilityContext.Provider>;
}

export const useReachability = (): Reachability => useContext(ReachabilityContext);
