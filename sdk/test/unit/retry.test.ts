import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  BadRequestError,
  ConflictError,
  ConnectionError,
  ForbiddenError,
  MiniQueue,
  MiniQueueError,
  NotFoundError,
  PayloadTooLargeError,
  RateLimitedError,
  RequestTimeoutError,
  ServerError,
  UnauthorizedError,
  UnavailableError,
} from '../../src/index.js';
import { errorBody, publishResult, startStubServer, type StubAnswer, type StubServer } from '../helpers/stubServer.js';

// Short delays keep the suite fast; the rules, not the timings, are under test.
const fastRetry = { attempts: 4, baseDelayMs: 5, maxDelayMs: 20 };

let stub: StubServer | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

// These are the HTTP retry rules: the stub server speaks HTTP only (the stream has its own tests).
async function clientFor(answers: StubAnswer[] | ((n: number) => StubAnswer), options: Partial<ConstructorParameters<typeof MiniQueue>[0]> = {}) {
  const answer = typeof answers === 'function' ? answers : (n: number) => answers[Math.min(n, answers.length - 1)];
  stub = await startStubServer((_request, n) => answer(n));
  const mq = new MiniQueue({ url: stub.url, apiKey: 'mq_test', retry: fastRetry, transport: 'http', ...options });
  return { mq, stub };
}

describe('which failures are retried', () => {
  it.each([500, 502, 503, 504, 429])('retries %i and returns the later success', async (status) => {
    const { mq, stub } = await clientFor([
      { status, body: errorBody(status) },
      { status, body: errorBody(status) },
      { status: 201, body: publishResult },
    ]);
    await expect(mq.publish('order.placed', 'hello')).resolves.toEqual(publishResult);
    expect(stub.requests).toHaveLength(3);
  });

  it.each([
    [400, BadRequestError],
    [401, UnauthorizedError],
    [403, ForbiddenError],
    [404, NotFoundError],
    [409, ConflictError],
    [413, PayloadTooLargeError],
  ])('never retries %i and raises it typed', async (status, ErrorType) => {
    const { mq, stub } = await clientFor([
      { status, body: errorBody(status, `no: ${status}`) },
      { status: 201, body: publishResult },
    ]);
    const error = await mq.publish('order.placed', 'hello').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ErrorType);
    expect(error).toBeInstanceOf(MiniQueueError);
    expect(error).toMatchObject({ status, message: `no: ${status}`, attempts: 1 });
    expect(stub.requests).toHaveLength(1);
  });

  it('retries a dropped connection', async () => {
    const { mq, stub } = await clientFor(['drop', 'drop', { status: 201, body: publishResult }]);
    await expect(mq.publish('order.placed', 'hello')).resolves.toEqual(publishResult);
    expect(stub.requests).toHaveLength(3);
  });

  it('gives up after the configured attempts with the last typed error', async () => {
    const { mq, stub } = await clientFor([{ status: 503, body: errorBody(503, 'database unavailable') }], { retry: { ...fastRetry, attempts: 3 } });
    const error = await mq.topics.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnavailableError);
    expect(error).toMatchObject({ status: 503, message: 'database unavailable', attempts: 3 });
    expect(stub.requests).toHaveLength(3);
  });

  it('raises ServerError for a 500 and ConnectionError when the network keeps failing', async () => {
    const { mq } = await clientFor([{ status: 500, body: errorBody(500, 'Internal Server Error') }], { retry: { ...fastRetry, attempts: 2 } });
    await expect(mq.topics.list()).rejects.toBeInstanceOf(ServerError);
    await stub?.close();
    const { mq: cut } = await clientFor(['drop'], { retry: { ...fastRetry, attempts: 2 } });
    const error = await cut.topics.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ status: 0, attempts: 2 });
  });

  it('does not retry when attempts is 1', async () => {
    const { mq, stub } = await clientFor([{ status: 503, body: errorBody(503) }], { retry: { attempts: 1 } });
    await expect(mq.topics.list()).rejects.toBeInstanceOf(UnavailableError);
    expect(stub.requests).toHaveLength(1);
  });

  it('lets one call override the policy', async () => {
    const { mq, stub } = await clientFor([{ status: 503, body: errorBody(503) }]);
    await expect(mq.ops.health({ retry: { attempts: 1 } })).rejects.toBeInstanceOf(UnavailableError);
    expect(stub.requests).toHaveLength(1);
  });
});

describe('Retry-After', () => {
  it('waits as long as the server asks before retrying', async () => {
    const { mq, stub } = await clientFor([
      { status: 429, body: errorBody(429), headers: { 'Retry-After': '1' } },
      { status: 201, body: publishResult },
    ]);
    const started = Date.now();
    await mq.publish('order.placed', 'hello');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(stub.requests).toHaveLength(2);
  });

  it('hands a wait longer than maxRetryAfterMs to the caller instead of sleeping', async () => {
    const { mq, stub } = await clientFor([{ status: 429, body: errorBody(429, 'slow down'), headers: { 'Retry-After': '120' } }]);
    const error = await mq.publish('order.placed', 'hello').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toMatchObject({ retryAfterMs: 120_000, attempts: 1, message: 'slow down' });
    expect(stub.requests).toHaveLength(1);
  });
});

describe('idempotency keys', () => {
  it('sends the same key on every attempt of one publish, and a new key per publish', async () => {
    const { mq, stub } = await clientFor((n) => (n % 3 < 2 ? { status: 503, body: errorBody(503) } : { status: 201, body: publishResult }));
    await mq.publish('order.placed', 'one');
    await mq.publish('order.placed', 'two');
    const keys = stub.requests.map((request) => request.headers['idempotency-key']);
    expect(keys).toHaveLength(6);
    expect(new Set(keys.slice(0, 3)).size).toBe(1);
    expect(new Set(keys.slice(3)).size).toBe(1);
    expect(keys[0]).not.toBe(keys[3]);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('uses the caller’s key, and sends payload, headers and delay as the contract names them', async () => {
    const { mq, stub } = await clientFor([{ status: 201, body: publishResult }]);
    await mq.publish('order.placed', '{"orderId":42}', { idempotencyKey: 'order-42', headers: { 'content-type': 'application/json' }, delaySeconds: 5 });
    expect(stub.requests[0].headers['idempotency-key']).toBe('order-42');
    expect(stub.requests[0].headers.authorization).toBe('Bearer mq_test');
    expect(JSON.parse(stub.requests[0].body)).toEqual({ payload: '{"orderId":42}', headers: { 'content-type': 'application/json' }, delay_seconds: 5 });
  });

  it('sends no key when the caller asks for none', async () => {
    const { mq, stub } = await clientFor([
      { status: 201, body: publishResult },
      { status: 201, body: { results: [publishResult, publishResult] } },
    ]);
    await mq.publish('order.placed', 'hello', { idempotencyKey: null });
    await mq.publishBatch('order.placed', [{ payload: 'a', idempotencyKey: null }, { payload: 'b' }]);
    expect(stub.requests[0].headers['idempotency-key']).toBeUndefined();
    const [first, second] = JSON.parse(stub.requests[1].body).messages;
    expect(first).toEqual({ payload: 'a' });
    expect(second.idempotency_key).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('gives every batch item a key, the same on every attempt', async () => {
    const { mq, stub } = await clientFor([
      { status: 502, body: errorBody(502) },
      { status: 201, body: { results: [publishResult, publishResult] } },
    ]);
    await mq.publishBatch('order.placed', [{ payload: 'a' }, { payload: 'b', idempotencyKey: 'mine' }]);
    const bodies = stub.requests.map((request) => JSON.parse(request.body));
    expect(bodies[0]).toEqual(bodies[1]);
    const [first, second] = bodies[0].messages;
    expect(first.idempotency_key).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.idempotency_key).toBe('mine');
  });
});

describe('abort and timeout', () => {
  it('stops at once when the caller aborts, without further attempts', async () => {
    const { mq, stub } = await clientFor([{ status: 201, body: publishResult, delayMs: 2000 }]);
    const controller = new AbortController();
    const started = Date.now();
    const publishing = mq.publish('order.placed', 'hello', { signal: controller.signal }).catch((e: unknown) => e);
    // Aborted once the request is in flight (the stub has it and holds its answer for 2 s).
    while (stub.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    const error = await publishing;
    expect((error as Error).name).toBe('AbortError');
    expect(Date.now() - started).toBeLessThan(1500);
    expect(stub.requests).toHaveLength(1);
  });

  it('stops during the backoff wait when the caller aborts', async () => {
    const { mq, stub } = await clientFor([{ status: 503, body: errorBody(503) }], { retry: { attempts: 5, baseDelayMs: 5000, maxDelayMs: 5000 } });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('gave up')), 100);
    // The backoff is jittered (0 to 5 s): held near its ceiling, so the abort surely comes during it.
    const random = vi.spyOn(Math, 'random').mockReturnValue(0.99);
    const started = Date.now();
    try {
      await expect(mq.topics.list({ signal: controller.signal })).rejects.toThrow('gave up');
    } finally {
      random.mockRestore();
    }
    expect(Date.now() - started).toBeLessThan(2000);
    expect(stub.requests).toHaveLength(1);
  });

  it('rejects with an already aborted signal without sending anything', async () => {
    const { mq, stub } = await clientFor([{ status: 200, body: [] }]);
    await expect(mq.topics.list({ signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
    expect(stub.requests).toHaveLength(0);
  });

  it('times out a slow attempt and retries it', async () => {
    const { mq, stub } = await clientFor(
      [
        { status: 200, body: [], delayMs: 3000 },
        { status: 200, body: [] },
      ],
      { timeoutMs: 500 },
    );
    await expect(mq.topics.list()).resolves.toEqual([]);
    expect(stub.requests).toHaveLength(2);
  });

  it('raises RequestTimeoutError when every attempt is too slow', async () => {
    const { mq, stub } = await clientFor([{ status: 200, body: [], delayMs: 1000 }], { timeoutMs: 100, retry: { ...fastRetry, attempts: 2 } });
    const error = await mq.topics.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ status: 0, attempts: 2 });
    expect(stub.requests).toHaveLength(2);
  });

  it('gives a long poll its wait on top of the timeout', async () => {
    const message = {
      message_id: '3f2a9c1e-5b7d-4e8a-9c21-7d4e5f6a8b90',
      queue: 'q',
      topic: 't',
      payload: 'x',
      headers: {},
      status: 'UNACKED',
      retry_count: 0,
      published_at: '2026-11-29T10:00:00.123Z',
      available_at: '2026-11-29T10:00:00.123Z',
      consumer_id: 'c',
      unacked_at: '2026-11-29T10:00:01.456Z',
      lease_expires_at: '2026-11-29T10:00:31.456Z',
    };
    const { mq, stub } = await clientFor([{ status: 200, body: message, delayMs: 600 }], { timeoutMs: 300 });
    const claimed = await mq.consume('q', { waitSeconds: 2 });
    expect(claimed?.lease_expires_at).toEqual(new Date('2026-11-29T10:00:31.456Z'));
    expect(stub.requests).toHaveLength(1);
    expect(stub.requests[0].url).toBe('/api/v1/queues/q/consume?wait_seconds=2');
  });
});

describe('requests and errors on the wire', () => {
  it('carries the field errors of a 400', async () => {
    const errors = [{ field: 'name', message: 'must match ^[a-z0-9._-]{1,100}$' }];
    const { mq } = await clientFor([{ status: 400, body: errorBody(400, 'Invalid request', errors) }]);
    const error = await mq.topics.create('bad name').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ errors, body: errorBody(400, 'Invalid request', errors) });
  });

  it('names the status when the body is not the error shape', async () => {
    const { mq } = await clientFor([{ status: 404 }]);
    const error = await mq.topics.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as Error).message).toMatch(/^HTTP 404/);
  });

  it('sends MiniQueue-Instance on consume, ack, nack and extend, and maps 204 to null', async () => {
    const { mq, stub } = await clientFor(
      (n) => (n === 0 ? { status: 204 } : { status: 200, body: { message_id: 'm', status: 'ACKED', lease_expires_at: '2026-11-29T10:00:31.456Z' } }),
      { instanceId: 'replica-2' },
    );
    expect(await mq.consume('email-queue')).toBeNull();
    await mq.ack('m');
    await mq.nack('m', { requeue: false });
    await mq.extend('m', 60);
    expect(stub.requests.map((request) => request.headers['miniqueue-instance'])).toEqual(['replica-2', 'replica-2', 'replica-2', 'replica-2']);
    expect(stub.requests.map((request) => request.body)).toEqual(['', '', '{"requeue":false}', '{"seconds":60}']);
  });

  it('reads the credential from a function on every request', async () => {
    const { mq, stub } = await clientFor([{ status: 200, body: [] }], { apiKey: undefined });
    let token = 'mqs_first';
    const sessionClient = new MiniQueue({ url: stub.url, apiKey: () => token, retry: fastRetry, transport: 'http' });
    await sessionClient.topics.list();
    token = 'mqs_second';
    await sessionClient.topics.list();
    await mq.topics.list();
    expect(stub.requests.map((request) => request.headers.authorization)).toEqual(['Bearer mqs_first', 'Bearer mqs_second', undefined]);
  });
});

describe('over a fetch given in the options (as in browsers), the same rules', () => {
  const viaFetch = { fetch: (input: RequestInfo | URL, init?: RequestInit) => fetch(input, init) };

  it('retries a dropped connection and a 503', async () => {
    const { mq, stub } = await clientFor(['drop', { status: 503, body: errorBody(503) }, { status: 201, body: publishResult }], viaFetch);
    await expect(mq.publish('order.placed', 'hello')).resolves.toEqual(publishResult);
    expect(stub.requests).toHaveLength(3);
  });

  it('times out a slow attempt, then raises RequestTimeoutError', async () => {
    const { mq, stub } = await clientFor([{ status: 200, body: [], delayMs: 1000 }], { ...viaFetch, timeoutMs: 100, retry: { ...fastRetry, attempts: 2 } });
    const error = await mq.topics.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(error).toMatchObject({ status: 0, attempts: 2 });
    expect(stub.requests).toHaveLength(2);
  });

  it('stops at once when the caller aborts', async () => {
    const { mq, stub } = await clientFor([{ status: 201, body: publishResult, delayMs: 2000 }], viaFetch);
    const controller = new AbortController();
    const publishing = mq.publish('order.placed', 'hello', { signal: controller.signal }).catch((e: unknown) => e);
    while (stub.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    expect(((await publishing) as Error).name).toBe('AbortError');
    expect(stub.requests).toHaveLength(1);
  });

  it('reads a typed error and Retry-After from the response', async () => {
    const { mq } = await clientFor([{ status: 429, body: errorBody(429, 'slow down'), headers: { 'Retry-After': '120' } }], viaFetch);
    await expect(mq.publish('order.placed', 'hello')).rejects.toMatchObject({ name: expect.any(String), retryAfterMs: 120_000, message: 'slow down' });
  });
});
