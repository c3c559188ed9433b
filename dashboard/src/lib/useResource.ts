import { useCallback, useEffect, useRef, useState } from 'react';

export interface Resource<T> {
  data: T | undefined;
  error: unknown;
  /** True until the first answer (or failure); a reload keeps showing the previous data. */
  loading: boolean;
  reload: () => void;
}

/**
 * Loads data and reloads on demand. A reload that finishes after a newer one started is ignored,
 * so a slow answer never overwrites a fresh one; unmounting aborts the request in flight.
 */
export function useResource<T>(load: (signal: AbortSignal) => Promise<T>, deps: readonly unknown[]): Resource<T> {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true });
  const generation = useRef(0);
  const controller = useRef<AbortController | null>(null);
  const run = useCallback(load, deps);

  const reload = useCallback(() => {
    const mine = ++generation.current;
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    run(abort.signal).then(
      (data) => mine === generation.current && setState({ data, loading: false }),
      (error) => {
        if (mine !== generation.current || abort.signal.aborted) return;
        setState((previous) => ({ data: previous.data, error, loading: false }));
      },
    );
  }, [run]);

  useEffect(() => {
    setState((previous) => ({ data: previous.data, loading: previous.data === undefined }));
    reload();
    return () => controller.current?.abort();
  }, [reload]);

  return { data: state.data, error: state.error, loading: state.loading, reload };
}
