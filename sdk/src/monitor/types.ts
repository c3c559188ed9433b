import type { MonitorEvent } from './events.js';

export type MonitorStatus = 'connecting' | 'open' | 'reconnecting' | 'stopped';

export interface MonitorOptions {
  /** Only this queue's events (and EVENTS_DROPPED). Default: every event of every queue and topic. */
  queue?: string;
  /** Longest wait between reconnect attempts, in milliseconds. Default 30000. */
  maxReconnectDelayMs?: number;
}

/** The client's shared stream, as a monitor watches the feed on it (stream/route.ts). */
export interface MonitorStream {
  /** The stream's address, for people. */
  readonly url: string;
  /** Resolves once the broker sends the feed; null where streams do not work here (then /ws/monitor). */
  watch(queue: string | undefined, handlers: MonitorStreamHandlers): Promise<{ unwatch(): Promise<void> } | null>;
}

export interface MonitorStreamHandlers {
  event(event: MonitorEvent): void;
  /** The broker sends the feed (again, after the stream came back). */
  watching(): void;
  /** The stream was lost (`closed`: how, when it was open); it is reopened and the watch made again. */
  interrupted(error: unknown, closed?: { code: number; reason: string }): void;
  /** The broker ended the watch (`view` removed), or `unavailable`: streams turned out not to work here. */
  ended(error: unknown, unavailable: boolean): void;
}

/** How an open socket ended, when it was not stop() that ended it. */
export interface MonitorClosed {
  code: number;
  reason: string;
  /** The credential was revoked, rotated or signed out: reconnecting with it cannot succeed. */
  credentialEnded: boolean;
}

export interface MonitorEvents extends Record<string, unknown[]> {
  event: [event: MonitorEvent];
  /** `detail` says why the last connection ended, while reconnecting. */
  status: [status: MonitorStatus, detail?: string];
  /** An open socket closed; a reconnect follows unless stop() is called. */
  close: [closed: MonitorClosed];
  /**
   * An attempt failed before the socket opened: a typed refusal in Node (UnauthorizedError,
   * ForbiddenError, RateLimitedError…), ConnectionError when there was no answer (browsers
   * cannot tell the two apart), or the ticket request's error.
   */
  error: [error: Error];
}
