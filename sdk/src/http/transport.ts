import { Configuration, type BaseAPI, type Middleware } from '../generated/index.js';
import type { CallOptions, MiniQueueOptions } from '../options.js';
import { BrokerEndpoints } from './endpoints.js';
import { fetchSend } from './fetchSend.js';
import { isNode, nodeCanSend, nodeSend } from './nodeSend.js';
import { sendWithRetries, type FetchFunction } from './retryingFetch.js';
import { retryPolicy, type RetryPolicy } from './retryPolicy.js';
import type { Send } from './send.js';

const DEFAULT_TIMEOUT_MS = 30_000;

// The generated runtime wraps whatever fetch throws in its own FetchError; hand ours through as they are.
const passErrorsThrough: Middleware = {
  onError: async ({ error }) => {
    throw error;
  },
};

type ApiClass<T extends BaseAPI> = new (configuration: Configuration) => T;

/** What one call may change: its retries, its per-attempt limit, and a signal to end it. */
interface CallSettings {
  retry: RetryPolicy;
  timeoutMs: number;
  signal?: AbortSignal;
}

// Carries a call's settings through the generated client's `initOverrides` to fetchApi below:
// the generated code copies the init it is given, symbol keys included, into the fetch's init.
const CALL = Symbol('miniqueue.call');
type InitWithCall = RequestInit & { [CALL]?: CallSettings };

/**
 * The HTTP side of a MiniQueue client: one generated API client per API class, made on first use
 * and reused by every call, whose requests go through the SDK's retries, timeouts and errors. A
 * call that changes those passes `transport.call(options)` as the generated method's second
 * argument (its `initOverrides`); calls that change nothing pass nothing and allocate nothing.
 */
export class Transport {
  /** The broker's URLs, and the one calls go to now. */
  readonly endpoints: BrokerEndpoints;
  readonly instanceId: string | undefined;
  private readonly defaults: CallSettings;
  private readonly send: Send;
  private readonly credential: MiniQueueOptions['apiKey'];
  private readonly configuration: Configuration;
  private readonly apis = new Map<ApiClass<BaseAPI>, BaseAPI>();

  constructor(options: MiniQueueOptions) {
    this.endpoints = BrokerEndpoints.fromOptions(options);
    this.instanceId = options.instanceId;
    this.defaults = { retry: retryPolicy(options.retry), timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS };
    this.send = senderFor(options.fetch);
    this.credential = options.apiKey;
    this.configuration = this.configurationFor(undefined);
  }

  /**
   * The generated API client of this class. Given call options (the older way to pass them),
   * a client for that one call is made instead; prefer `api(Api).method(params, call(options))`.
   */
  api<T extends BaseAPI>(Api: ApiClass<T>, call?: CallOptions, extraTimeoutMs = 0): T {
    const settings = this.settingsFor(call, extraTimeoutMs);
    if (settings) return new Api(this.configurationFor(settings));
    let api = this.apis.get(Api);
    if (!api) {
      api = new Api(this.configuration);
      this.apis.set(Api, api);
    }
    return api as T;
  }

  /**
   * A generated method's `initOverrides` for these call options (`extraTimeoutMs` covers a long
   * poll's wait), or undefined when they change nothing.
   */
  call(call?: CallOptions, extraTimeoutMs = 0): RequestInit | undefined {
    const settings = this.settingsFor(call, extraTimeoutMs);
    return settings ? ({ [CALL]: settings } as InitWithCall) : undefined;
  }

  /** The broker URL calls go to now (the one URL, or the current one of several). */
  get baseUrl(): string {
    return this.endpoints.current();
  }

  /** The current credential; empty when the client has none. */
  async token(): Promise<string> {
    const credential = this.credential;
    if (credential === undefined) return '';
    return typeof credential === 'function' ? credential() : credential;
  }

  private settingsFor(call: CallOptions | undefined, extraTimeoutMs: number): CallSettings | undefined {
    if (!call || (call.signal === undefined && call.timeoutMs === undefined && call.retry === undefined)) {
      if (extraTimeoutMs === 0) return undefined;
    }
    return {
      retry: call?.retry ? retryPolicy(this.defaults.retry, call.retry) : this.defaults.retry,
      timeoutMs: (call?.timeoutMs ?? this.defaults.timeoutMs) + extraTimeoutMs,
      signal: call?.signal,
    };
  }

  private configurationFor(fixed: CallSettings | undefined): Configuration {
    return new Configuration({
      // Requests are made on the first URL; sendWithRetries moves each attempt to the current one.
      basePath: this.endpoints.urls[0],
      accessToken: this.credential === undefined ? undefined : () => this.token(),
      fetchApi: async (input: RequestInfo | URL, init: InitWithCall = {}) => {
        const settings = fixed ?? init[CALL] ?? this.defaults;
        const signal = init.signal ? joinSignals(settings.signal, init.signal) : settings.signal;
        const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
        const response = await sendWithRetries(
          { send: this.send, retry: settings.retry, timeoutMs: settings.timeoutMs, signal, endpoints: this.endpoints },
          url,
          init,
        );
        return response.asResponse();
      },
      middleware: [passErrorsThrough],
    });
  }
}

/**
 * How attempts go out: through the fetch given in the options; else, in Node, over node:http
 * (see nodeSend.ts for why), with the global fetch for bodies it does not send itself; else
 * (browsers) the global fetch, looked up per request so a polyfill installed later is used.
 */
function senderFor(fetch: FetchFunction | undefined): Send {
  if (fetch) return fetchSend(fetch);
  const globalFetch = fetchSend((input, init) => globalThis.fetch(input, init));
  if (!isNode()) return globalFetch;
  return (url, init, timeoutMs, signal) => (nodeCanSend(init) ? nodeSend : globalFetch)(url, init, timeoutMs, signal);
}

function joinSignals(first: AbortSignal | undefined, second: AbortSignal): AbortSignal {
  return first ? AbortSignal.any([first, second]) : second;
}
