import http from 'node:http';
import type { Config } from '../config.js';

/** How often Node looks for requests past their header or request timeout. */
const CHECK_INTERVAL_MS = 1_000;

/**
 * The HTTP server hapi listens with, bounded so that a slow client cannot hold a connection by
 * trickling (slowloris). Each bound counts from a fixed start, so sending a byte now and then
 * does not stretch it:
 * - headers: from the connection (or the end of the previous request) to the end of the headers;
 * - request: from the same start to the end of the body; the time spent answering (a long poll
 *   waiting up to 20 s) does not count;
 * - keep-alive: idle time between requests.
 * A client cut off mid-request gets 400 (hapi answers Node's timeout) and the connection closes.
 * Node checks the first two once a second, so they end within a second of their value.
 */
export function createListener(config: Pick<Config, 'http'>): http.Server {
  const { headersTimeoutSeconds, requestTimeoutSeconds, keepAliveTimeoutSeconds } = config.http;
  const listener = http.createServer({
    headersTimeout: headersTimeoutSeconds * 1000,
    requestTimeout: requestTimeoutSeconds * 1000,
    connectionsCheckingInterval: CHECK_INTERVAL_MS,
  });
  listener.keepAliveTimeout = keepAliveTimeoutSeconds * 1000;
  return listener;
}
