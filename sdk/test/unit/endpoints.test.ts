import { describe, expect, it } from 'vitest';
import { BrokerEndpoints, FAILBACK_AFTER_MS } from '../../src/http/endpoints.js';
import { ConnectionError, MiniQueue } from '../../src/index.js';
import { startFakeStream } from '../helpers/fakeStream.js';
import { errorBody, publishResult, startStubServer } from '../helpers/stubServer.js';

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

describe('a client with several URLs over HTTP', () => {
  it('sends the retry of an attempt that found its broker away to the next URL, and stays there', async () => {
    const away = await startStubServer(() => ({ status: 503, body: errorBody(503, 'shutting down') }));
    const up = await startStubServer(() => ({ status: 201, body: publishResult }));
    // Two attempts in all: the second one can only succeed on the other URL.
    const client = new MiniQueue({ urls: [away.url, up.url], apiKey: 'mq_test', transport: 'http', retry: { attempts: 2 } });
    await client.publish('t', 'first', { idempotencyKey: 'k1' });
    await client.publish('t', 'second');
    expect(away.requests).toHaveLength(1);
    expect(up.requests.map((request) => request.url)).toEqual(['/api/v1/topics/t/messages', '/api/v1/topics/t/messages']);
    // The same request, the same key, on the other broker.
    expect(up.requests[0].headers['idempotency-key']).toBe('k1');
    expect(up.requests[0].body).toBe(away.requests[0].body);
    await Promise.all([away.close(), up.close()]);
  });

  it('does not move for a 429: the broker answered, and asked to wait', async () => {
    const limited = await startStubServer((_request, n) =>
      n === 0 ? { status: 429, body: errorBody(429, 'slow down'), headers: { 'retry-after': '0' } } : { status: 201, body: publishResult },
    );
    const other = await startStubServer(() => ({ status: 201, body: publishResult }));
    const client = new MiniQueue({ urls: [limited.url, other.url], apiKey: 'mq_test', transport: 'http' });
    await client.publish('t', 'x');
    expect(limited.requests).toHaveLength(2);
    expect(other.requests).toHaveLength(0);
    await Promise.all([limited.close(), other.close()]);
  });
});

describe("a caller's bound on a publish over the stream", () => {
  it('retry.maxElapsedMs ends a publish waiting for a stream that cannot come back, with ConnectionError', async () => {
    const fake = await startFakeStream();
    const client = new MiniQueue({ url: fake.url, apiKey: 'mq_test', retry: { baseDelayMs: 20, maxDelayMs: 50 } });
    await client.publish('t', 'warm-up');
    await fake.close(); // nothing listens there any more: every reconnect fails
    const error = await client.publish('t', 'bounded', { retry: { maxElapsedMs: 300 } }).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(ConnectionError);
    client.close();
  });
});
