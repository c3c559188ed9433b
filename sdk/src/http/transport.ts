import { Configuration, type BaseAPI, type Middleware } from '../generated/index.js';
import type { CallOptions, MiniQueueOptions } from '../options.js';
import { retryingFetch, type FetchFunction } from './retryingFetch.js';
import { retryPolicy, type RetryPolicy } from './retryPolicy.js';

const DEFAULT_TIMEOUT_MS = 30_000;

// The generated runtime wraps whatever fetch throws in its own FetchError; hand ours through as they are.
const passErrorsThrough: Middleware = {
  onError: async ({ error }) => {
    throw error;
  },
};

type ApiClass<T extends BaseAPI> = new (configuration: Configuration) => T;

/** Builds generated API clients whose requests go through the SDK's retries, timeouts and errors. */
export class Transport {
  readonly baseUrl: string;
  readonly instanceId: string | undefined;
  private readonly retry: RetryPolicy;
  private readonly timeoutMs: number;
  private readonly fetch: FetchFunction;
  private readonly credential: MiniQueueOptions['apiKey'];

  constructor(options: MiniQueueOptions) {
    this.baseUrl = options.url.replace(/\/+$/, '');
    this.instanceId = options.instanceId;
    this.retry = retryPolicy(options.retry);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    // Looked up per request, so a fetch replaced after construction (tests, polyfills) is used.
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.credential = options.apiKey;
  }

  /** A generated API client for one call; `extraTimeoutMs` covers a long poll's wait. */
  api<T extends BaseAPI>(Api: ApiClass<T>, call: CallOptions = {}, extraTimeoutMs = 0): T {
    const fetchApi = retryingFetch({
      fetch: this.fetch,
      retry: retryPolicy(this.retry, call.retry),
      timeoutMs: (call.timeoutMs ?? this.timeoutMs) + extraTimeoutMs,
      signal: call.signal,
    });
    return new Api(
      new Configuration({
        basePath: this.baseUrl,
        accessToken: this.credential === undefined ? undefined : () => this.token(),
        fetchApi,
        middleware: [passErrorsThrough],
      }),
    );
  }

  /** The current credential; empty when the client has none. */
  async token(): Promise<string> {
    const credential = this.credential;
    if (credential === undefined) return '';
    return typeof credential === 'function' ? credential() : credential;
  }
}
