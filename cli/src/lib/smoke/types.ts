import type { MiniQueue } from '@miniqueue/sdk';

/** A check that did not hold; its message is the reason printed beside the check's name. */
export class CheckFailed extends Error {}

export interface SmokeOptions {
  url: string;
  adminKey: string;
  /**
   * An origin the broker's CORS_ALLOWED_ORIGINS should accept (undefined: only its own, which a
   * browser never preflights: the dashboard it serves is same-origin), and one it should refuse.
   */
  corsAllowed?: string;
  corsDenied: string;
}

/** What every check can use; everything it creates through here is deleted at the end. */
export interface SmokeContext {
  options: SmokeOptions;
  admin: MiniQueue;
  /** A client of the SDK with this key (no key: the public routes only). */
  as(key?: string): MiniQueue;
  /** A topic with one queue bound to it, both named for this run. */
  topicWithQueue(label: string, maxRetries?: number): Promise<{ topic: string; queue: string }>;
  /** A client registered for this run, with these scopes; returns its key. */
  clientWith(label: string, scopes: string[]): Promise<{ name: string; key: string }>;
}

export interface Check {
  name: string;
  /** What the check proves when it passes, as one short line. */
  run(context: SmokeContext): Promise<string>;
}

export interface CheckResult {
  name: string;
  ok: boolean;
  /** What was shown on success; the reason on failure. */
  detail: string;
  ms: number;
}
