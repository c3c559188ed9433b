import { useEffect, useRef, useState } from 'react';
import type { RateBucket } from '@miniqueue/sdk';
import { useSession } from '../../../app/session';
import { loadRates, mergeBuckets } from './rates';
import { refreshSecondsOf, type ChartWindow } from './windows';

export interface RateHistory {
  buckets: RateBucket[];
  /** The first load failed (later refreshes that fail keep what is shown). */
  error: unknown;
  loading: boolean;
}

/** How often the newest buckets are asked for, so the chart extends while the page is open. */
const REFRESH_MS = 5000;

/**
 * The window from the broker's history on arrival, then the newest buckets every few seconds,
 * merged in by their start. Of one queue, or of the whole broker.
 */
export function useRateSeries(queue: string | undefined, window: ChartWindow): RateHistory {
  const { mq } = useSession();
  const [state, setState] = useState<RateHistory>({ buckets: [], error: undefined, loading: true });
  const loaded = useRef(false);

  useEffect(() => {
    const abort = new AbortController();
    loaded.current = false;
    setState({ buckets: [], error: undefined, loading: true });
    const fetchInto = async (windowSeconds: number) => {
      try {
        const series = await loadRates(mq, { queue, windowSeconds, resolutionSeconds: window.resolution, signal: abort.signal });
        if (abort.signal.aborted) return;
        loaded.current = true;
        setState((previous) => ({ buckets: mergeBuckets(previous.buckets, series.buckets, window.seconds), error: undefined, loading: false }));
      } catch (error) {
        if (!abort.signal.aborted && !loaded.current) setState((previous) => ({ ...previous, error, loading: false }));
      }
    };
    void fetchInto(window.seconds);
    const timer = setInterval(() => void fetchInto(loaded.current ? refreshSecondsOf(window) : window.seconds), REFRESH_MS);
    return () => {
      abort.abort();
      clearInterval(timer);
    };
  }, [mq, queue, window]);

  return state;
}
