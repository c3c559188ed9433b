import { redactedUrl } from './redactedUrl.js';
import type { PushFailureKind } from './failureKind.js';

/** One line per endpoint at most this often, however fast its deliveries fail. */
export const FAILURE_LOG_INTERVAL_MS = 60_000;

export type PushLog = (level: 'warn' | 'info', message: string, fields: Record<string, unknown>) => void;

interface EndpointLog {
  loggedAt: number;
  /** Failures since the last line. */
  unlogged: number;
  /** A failing line was written and no recovery line since. */
  failing: boolean;
}

/**
 * The log lines of failing push endpoints: the first failure at once, then at most one line a
 * minute per endpoint, saying how many failed since the line before; one line when deliveries
 * succeed again. The URL is shown as a `view` caller sees it (no query: tokens live there; a
 * stored URL has no credentials), the secret never.
 */
export class PushFailureLog {
  private readonly endpoints = new Map<string, EndpointLog>();

  constructor(
    private readonly log: PushLog,
    private readonly now: () => number = Date.now,
  ) {}

  failed(queue: string, url: string, kind: PushFailureKind, error: string): void {
    const endpoint = this.endpoints.get(queue) ?? { loggedAt: -Infinity, unlogged: 0, failing: false };
    this.endpoints.set(queue, endpoint);
    endpoint.unlogged += 1;
    const now = this.now();
    if (now - endpoint.loggedAt < FAILURE_LOG_INTERVAL_MS) return;
    this.log('warn', 'push deliveries failing', { queue, url: redactedUrl(url), failures: endpoint.unlogged, reason: kind, last_error: error });
    endpoint.loggedAt = now;
    endpoint.unlogged = 0;
    endpoint.failing = true;
  }

  succeeded(queue: string, url: string): void {
    const endpoint = this.endpoints.get(queue);
    if (!endpoint) return;
    if (endpoint.failing) {
      this.log('info', 'push deliveries succeed again', { queue, url: redactedUrl(url), failures: endpoint.unlogged });
      endpoint.failing = false;
      endpoint.unlogged = 0;
    }
    // Failures not yet logged (a flapping endpoint's) wait for the next line.
    if (endpoint.unlogged === 0 && this.now() - endpoint.loggedAt >= FAILURE_LOG_INTERVAL_MS) this.endpoints.delete(queue);
  }
}
