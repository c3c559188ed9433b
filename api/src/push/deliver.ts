import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { CheckedTarget } from './targets.js';

/**
 * How one POST ended: the status it was answered with, or why there was none; `connection`: no
 * answer came over the connection (refused, reset, TLS...), with the error's code; `unsendable`:
 * the request could not even be made (the HTTP client refused a header, the URL...), with what it said.
 */
export type PostOutcome = { status: number } | { failure: 'timeout' } | { failure: 'connection'; cause: string } | Unsendable;
export interface Unsendable {
  failure: 'unsendable';
  cause: string;
}

/** What an error that kept a request from being made says, short and without the values it refused. */
export function unsendable(error: unknown): Unsendable {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message.split('\n')[0].slice(0, 200) : String(error).slice(0, 200);
  return { failure: 'unsendable', cause: typeof code === 'string' ? code : message };
}

/**
 * POSTs `body` to the checked target: connects to the address that was checked (never resolving
 * the name again), verifies TLS against the URL's host name, follows no redirect (a 3xx is an
 * answer like any other non-2xx), reads and discards at most a little of the answer, and gives up
 * after `timeoutMs` in all.
 */
export function post(target: CheckedTarget, headers: Record<string, string>, body: string, timeoutMs: number, signal?: AbortSignal): Promise<PostOutcome> {
  const pinned: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all)
      (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    // The client checks the method, URL and headers before it sends anything, and throws.
    try {
      send(resolve);
    } catch (error) {
      resolve(unsendable(error));
    }
  });

  function send(resolve: (outcome: PostOutcome) => void): void {
    let settled = false;
    const finish = (outcome: PostOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      resolve(outcome);
    };
    const request = client.request(
      target.url,
      {
        method: 'POST',
        lookup: pinned,
        agent: false,
        signal,
        headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
      },
      (response) => {
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > 64 * 1024) finish({ status: response.statusCode ?? 0 });
        });
        response.on('end', () => finish({ status: response.statusCode ?? 0 }));
        response.on('error', () => finish({ status: response.statusCode ?? 0 }));
      },
    );
    const timer = setTimeout(() => finish({ failure: 'timeout' }), timeoutMs);
    // The code (ECONNREFUSED, ECONNRESET, CERT_HAS_EXPIRED...) says why; the message, which may
    // name the address, is left out as unsendable() leaves out the values it refused.
    request.on('error', (error: Error & { code?: unknown }) =>
      finish({ failure: 'connection', cause: typeof error.code === 'string' ? error.code : error.name }),
    );
    request.end(body);
  }
}
