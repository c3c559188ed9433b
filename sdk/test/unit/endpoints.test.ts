import { describe, expect, it } from 'vitest';
import { BrokerEndpoints, FAILBACK_AFTER_MS } from '../../src/http/endpoints.js';
import { MiniQueue } from '../../src/index.js';

const A = 'http://a.example:8080';
const B = 'http://b.example:8080';
const C = 'http://c.example:8080';

describe('broker URLs', () => {
  it('stay on the current URL until it fails, then move to the next, wrapping around', () => {
    const endpoints = new BrokerEndpoints([A, B, C]);
    expect(endpoints.current()).toBe(A);
    expect(endpoints.current()).toBe(A);
    expect(endpoints.failed(A)).toBe(true);
    expect(endpoints.current()).toBe(B);
    endpoints.failed(B);
    endpoints.failed(C);
    expect(endpoints.current()).toBe(A);
  });

  it('are moved on once by failures of one URL reported by calls that ran at once', () => {
    const endpoints = new BrokerEndpoints([A, B, C]);
    endpoints.failed(A);
    expect(endpoints.failed(A)).toBe(true); // a second call that found A away: B is current already
    expect(endpoints.current()).toBe(B);
  });

  it(`try the first URL again ${FAILBACK_AFTER_MS / 1000} s after leaving it`, () => {
    let now = 1_000_000;
    const endpoints = new BrokerEndpoints([A, B], () => now);
    endpoints.failed(A);
    now += FAILBACK_AFTER_MS - 1;
    expect(endpoints.current()).toBe(B);
    now += 1;
    expect(endpoints.current()).toBe(A);
    endpoints.failed(A); // still away: B again, for another while
    now += FAILBACK_AFTER_MS - 1;
    expect(endpoints.current()).toBe(B);
  });

  it('with one URL, a failure moves nothing', () => {
    const endpoints = new BrokerEndpoints([A]);
    expect(endpoints.failed(A)).toBe(false);
    expect(endpoints.current()).toBe(A);
  });

  it('take url or urls, not both and not none, each checked as url is', () => {
    expect(() => new MiniQueue({ url: A, urls: [B] })).toThrow(new TypeError('MiniQueue: give url or urls, not both'));
    expect(() => new MiniQueue({ urls: [] })).toThrow(/urls must list at least one broker URL/);
    expect(() => new MiniQueue({})).toThrow(/url must be an absolute http: or https: URL/);
    expect(() => new MiniQueue({ urls: [A, 'ws://b.example'] })).toThrow(/url must be an http: or https: URL/);
    expect(new MiniQueue({ urls: [`${A}/`, B], transport: 'http' })).toBeInstanceOf(MiniQueue);
  });
});
