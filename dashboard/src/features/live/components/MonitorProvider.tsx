import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { useSession } from '../../../app/session';
import type { MonitorEvent, MonitorStatus } from '@miniqueue/sdk';
import { appendToFeed, type FeedRow } from '../api/feedRows';

interface MonitorState {
  status: MonitorStatus;
  /** Why the last connection ended, while reconnecting. */
  detail?: string;
  /** Newest first: the events of each second summed per type and queue. */
  rows: FeedRow[];
  /** Events received since sign-in; pages compare it to notice new activity. */
  received: number;
}

const MonitorContext = createContext<MonitorState | null>(null);

/** Events are drawn at most this often: a burst of thousands per second must not re-render per event. */
const FLUSH_MS = 250;
/** A person is looking at the indicator: try again sooner than a program would. */
const MAX_RECONNECT_DELAY_MS = 15_000;

/**
 * One watch of the live feed (on the client's stream, or /ws/monitor) for the whole signed-in app, so the feed and the counts keep running
 * while the person moves between pages.
 */
export function MonitorProvider({ children }: { children: ReactNode }) {
  const { mq } = useSession();
  const [state, setState] = useState<MonitorState>({ status: 'connecting', rows: [], received: 0 });
  const pending = useRef<MonitorEvent[]>([]);

  useEffect(() => {
    const flush = setInterval(() => {
      if (pending.current.length === 0) return;
      const arrived = pending.current;
      pending.current = [];
      setState((previous) => ({ ...previous, rows: appendToFeed(previous.rows, arrived), received: previous.received + arrived.length }));
    }, FLUSH_MS);
    const monitor = mq.monitor({ maxReconnectDelayMs: MAX_RECONNECT_DELAY_MS });
    monitor.on('event', (event) => pending.current.push(event));
    monitor.on('status', (status, detail) => setState((previous) => ({ ...previous, status, detail })));
    monitor.start();
    return () => {
      clearInterval(flush);
      void monitor.stop();
    };
  }, [mq]);

  return <MonitorContext.Provider value={state}>{children}</MonitorContext.Provider>;
}

export function useMonitor(): MonitorState {
  const value = useContext(MonitorContext);
  if (!value) throw new Error('useMonitor outside MonitorProvider');
  return value;
}

/**
 * Calls `refresh` after broker activity, at most once per `intervalMs` (the last burst is never
 * missed: a refresh also follows the end of it).
 */
export function useRefreshOnActivity(refresh: () => void, intervalMs = 1000): void {
  const { received } = useMonitor();
  const last = useRef(0);
  const seen = useRef(received);
  const latest = useRef(refresh);
  latest.current = refresh;

  useEffect(() => {
    if (received === seen.current) return;
    seen.current = received;
    const wait = last.current + intervalMs - Date.now();
    const run = () => {
      last.current = Date.now();
      latest.current();
    };
    if (wait <= 0) return run();
    const timer = setTimeout(run, wait);
    return () => clearTimeout(timer);
  }, [received, intervalMs]);
}
