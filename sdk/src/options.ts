import type { FetchFunction } from './http/retryingFetch.js';
import type { RetryOptions } from './http/retryPolicy.js';

/** A credential, or a function that returns the current one (for a session token that changes). */
export type Credential = string | (() => string | Promise<string>);

export interface MiniQueueOptions {
  /** Base URL of the broker, e.g. `http://localhost:8080`. Give this or `urls`. */
  url?: string;
  /**
   * Base URLs of several instances of one broker (they share its database), preferred first.
   * Calls and the stream use one until it fails (unreachable, timed out, 502/503/504), then the
   * next, wrapping around; a minute after leaving the first, they try it again. Give this or `url`.
   */
  urls?: string[];
  /** An API key (`mq_…`) or a dashboard session token (`mqs_…`). Public operations work without. */
  apiKey?: Credential;
  /**
   * Sent as `MiniQueue-Instance` on consume, receive, ack, nack and extend: with the key's client
   * name it forms the consumer identity, telling replicas that share one key apart.
   */
  instanceId?: string;
  /** Retry policy for every request; see RetryOptions for the defaults. */
  retry?: RetryOptions;
  /** Limit for one attempt of a request, in milliseconds (long polls add their wait). Default 30000. */
  timeoutMs?: number;
  /**
   * A fetch to send every request through. Default: in Node, none (requests go over node:http and
   * node:https with keep-alive, which costs a third of fetch's CPU); elsewhere the global fetch.
   */
  fetch?: FetchFunction;
  /**
   * `'stream'` (default): publishing, consumers and their acks, and `monitor()`, go over one
   * shared WebSocket (`/ws/v1/stream`), opened on first use, pipelined and confirmed; where it
   * cannot open (the handshake is refused, no WebSocket here) the client says so once and uses
   * HTTP (and `/ws/monitor` for the live feed). `'http'`: HTTP requests and `/ws/monitor`, as
   * before streams existed.
   */
  transport?: 'stream' | 'http';
  /** Where the client tells what it cannot do for you (a stream that cannot open). Default: console. */
  logger?: { warn(message: string): void };
}

/** Options every operation accepts. */
export interface CallOptions {
  /** Aborting ends the request and its retries; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Overrides the client's per-attempt timeout for this call. */
  timeoutMs?: number;
  /** Overrides parts of the client's retry policy for this call. */
  retry?: RetryOptions;
}
