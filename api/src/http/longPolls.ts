import type { Request, ResponseToolkit, Server } from '@hapi/hapi';
import type { Principal } from '../auth/principal.js';
import { RateLimitedError } from '../errors.js';

/** Routes tagged so may wait (consume, receive); only a request that asks to wait is counted. */
export const LONG_POLL_TAG = 'long-poll';

/** Long polls waiting per credential on this instance. */
export class LongPollSlots {
  private readonly held = new Map<string, number>();

  constructor(readonly perCredential: number) {}

  take(credential: string): boolean {
    const count = this.held.get(credential) ?? 0;
    if (count >= this.perCredential) return false;
    this.held.set(credential, count + 1);
    return true;
  }

  release(credential: string): void {
    const count = (this.held.get(credential) ?? 0) - 1;
    if (count > 0) this.held.set(credential, count);
    else this.held.delete(credential);
  }
}

const waitSecondsOf = (request: Request): number => {
  const query = request.query as { wait_seconds?: number };
  const body = request.payload as { wait_seconds?: number } | null;
  return Number(query.wait_seconds ?? body?.wait_seconds ?? 0);
};

/**
 * A waiting long poll holds no database connection, but it does hold a socket and a request (8 to
 * 23 KB of resident memory each, measured by `npm run bench:long-polls -w @miniqueue/api`) and
 * looks again every 5 s; without a cap one credential could open them until the instance ran
 * out of memory or file descriptors. Counted after validation, so `wait_seconds` is known; freed
 * when the request ends, however it ends.
 */
export function limitLongPolls(server: Server, perCredential: number): void {
  const slots = new LongPollSlots(perCredential);
  const holders = new WeakMap<Request, string>();

  server.ext('onPreHandler', (request: Request, h: ResponseToolkit) => {
    if (!request.route.settings.tags?.includes(LONG_POLL_TAG) || waitSecondsOf(request) <= 0) return h.continue;
    const principal = request.auth.credentials as unknown as Principal;
    const credential = `${principal.kind}:${principal.credentialId}`;
    if (!slots.take(credential)) {
      throw new RateLimitedError(
        `This credential already has ${perCredential} long polls waiting on this instance (the limit); retry when one has ended`,
        1,
        'long_poll_limit',
      );
    }
    holders.set(request, credential);
    return h.continue;
  });

  server.events.on('response', (request) => {
    const credential = holders.get(request);
    if (credential === undefined) return;
    holders.delete(request);
    slots.release(credential);
  });
}
