import { brokerUrl } from './brokerUrl.js';

/** After this long on another URL, the next call (or stream reconnect) tries the first URL again. */
export const FAILBACK_AFTER_MS = 60_000;

/**
 * The broker URLs a client may use (`url`, or several `urls` of one broker's instances) and which
 * one it uses now. Every call and the stream go to the current URL until an attempt there fails
 * (unreachable, timed out, or 502/503/504), then to the next in the list, wrapping around.
 * `FAILBACK_AFTER_MS` after leaving the first URL, it is tried again, so clients return to it once
 * it is back (the first URL is the preferred one). A stream that works is never moved for that:
 * it tries the first URL at its next reconnect.
 */
export class BrokerEndpoints {
  readonly urls: readonly string[];
  private index = 0;
  private leftFirstAt = 0;

  constructor(
    urls: readonly string[],
    private readonly now: () => number = Date.now,
  ) {
    this.urls = urls;
  }

  /** `url` or `urls` from the client's options: exactly one of them, each an http(s) URL. */
  static fromOptions(options: { url?: string; urls?: readonly string[] }): BrokerEndpoints {
    if (options.url !== undefined && options.urls !== undefined) throw new TypeError('MiniQueue: give url or urls, not both');
    if (options.urls !== undefined) {
      if (!Array.isArray(options.urls) || options.urls.length === 0) throw new TypeError('MiniQueue: urls must list at least one broker URL');
      return new BrokerEndpoints(options.urls.map(brokerUrl));
    }
    return new BrokerEndpoints([brokerUrl(options.url)]);
  }

  get several(): boolean {
    return this.urls.length > 1;
  }

  /** The URL to send the next attempt to. */
  current(): string {
    if (this.index !== 0 && this.now() - this.leftFirstAt >= FAILBACK_AFTER_MS) this.index = 0;
    return this.urls[this.index];
  }

  /**
   * An attempt to `url` failed as an unreachable broker does: when it is still the current one,
   * the next URL becomes current. True when that is another URL (worth trying at once).
   */
  failed(url: string): boolean {
    if (!this.several) return false;
    if (this.urls[this.index] !== url) return true; // another call moved on already
    this.index = (this.index + 1) % this.urls.length;
    if (this.index !== 0) this.leftFirstAt = this.now();
    return true;
  }
}
