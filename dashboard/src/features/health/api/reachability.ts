import { ConnectionError, RequestTimeoutError, UnavailableError } from '@miniqueue/sdk';

export type Reachability =
  | { state: 'reachable'; lastHeardAt: number }
  /** `problem`: the broker does not answer at all, or answers that its database is gone. */
  | { state: 'unreachable'; problem: 'broker' | 'database'; lastHeardAt: number };

/** What a failed health check says about the broker; null when it says nothing (a 401, a 429…). */
export function problemOf(error: unknown): 'broker' | 'database' | null {
  if (error instanceof ConnectionError || error instanceof RequestTimeoutError) return 'broker';
  if (error instanceof UnavailableError) return 'database';
  return null;
}
