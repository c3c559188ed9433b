import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { checkResponse } from '../helpers/contract.js';
import { eventually } from '../helpers/eventually.js';
import { capturedLogLines } from '../helpers/logCapture.js';
import { sample, scrape } from '../helpers/metrics.js';
import { publishOne, statusOf, topology } from '../helpers/fixtures.js';
import { startReceiver, type Receiver } from './receiver.js';
import { PUSH_ENV } from './support.js';

/**
 * A push endpoint that keeps failing is seen long before its messages are dead: a counter by
 * queue and reason, one log line a minute per endpoint at most (with how many failed, never the
 * URL's query), and on the endpoint its last error, last success and consecutive failures (also
 * in the dashboard's queue stats and as a gauge, which the alert rule and the attention flag read).
 */
let mq: TestBroker;
let receiver: Receiver;
let scraper: string;

beforeAll(async () => {
  mq = await startTestBroker({ env: PUSH_ENV });
  receiver = await startReceiver();
  scraper = await mq.clientKey('prometheus', ['metrics']);
});
afterAll(async () => {
  await receiver?.close();
  await mq?.stop();
});

const setPush = (queue: string, body: Record<string, unknown>) => mq.request('PUT', `/api/v1/queues/${queue}/push`, { body, key: mq.adminKey });
const endpointOf = async (queue: string) => {
  const response = await mq.get(`/api/v1/queues/${queue}/push`, mq.adminKey);
  checkResponse('GET', '/api/v1/queues/{name}/push', response.status, response.body, String(response.headers['content-type']));
  return response.body;
};
const queueStats = async (queue: string) => {
  const response = await mq.get('/api/v1/dashboard/queues', mq.adminKey);
  checkResponse('GET', '/api/v1/dashboard/queues', response.status, response.body, String(response.headers['content-type']));
  return response.body.find((row: { queue: string }) => row.queue === queue);
};
/** Makes every PENDING message of the queue claimable now, instead of waiting out its backoff. */
const skipBackoff = (queue: string) => mq.pool.query(`UPDATE message SET available_at = now() WHERE queue_name = $1 AND status = 'PENDING'`, [queue]);
const failuresOf = async (queue: string, reason: string) =>
  sample(await scrape(mq, scraper), `miniqueue_push_failures_total{queue="${queue}",reason="${reason}"}`);
const pushLogLines = (queue: string) =>
  capturedLogLines()
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((entry) => entry.queue === queue && String(entry.msg).startsWith('push deliveries failing'));

describe('a failing push endpoint', () => {
  it('is counted by reason, logged once a minute without its query, and its last error and consecutive failures are kept', async () => {
    await topology(mq, 'visible', [{ name: 'visible-q', max_retries: 50 }]);
    receiver.answer = (request, response) => {
      response.statusCode = request.path.startsWith('/visible') ? 503 : 200;
      response.end();
    };
    expect((await setPush('visible-q', { url: `${receiver.url}/visible?token=hook-token-do-not-log`, max_in_flight: 1 })).status).toBe(201);
    expect(await endpointOf('visible-q')).toMatchObject({ consecutive_failures: 0, last_error: null, last_error_at: null, last_success_at: null });

    const [id] = await publishOne(mq, 'visible', 'x');
    for (const attempt of [1, 2, 3]) {
      await eventually(async () => (await statusOf(mq, id))?.retry_count === attempt, `failure ${attempt} nacked`);
      await skipBackoff('visible-q');
    }
    await eventually(async () => (await failuresOf('visible-q', 'http_5xx')) >= 3, 'three 5xx failures counted');
    await eventually(async () => (await endpointOf('visible-q')).consecutive_failures >= 3, 'the consecutive failures stored');
    const failing = await endpointOf('visible-q');
    expect(failing).toMatchObject({ last_error: 'push endpoint answered 503', last_success_at: null });
    expect(Date.now() - Date.parse(failing.last_error_at)).toBeLessThan(60_000);
    expect((await queueStats('visible-q')).push_consecutive_failures).toBeGreaterThanOrEqual(3);
    // The queue gauges are read from the database at most every 2 s: the scrapes above may have cached older rows.
    const gauge = async () => sample(await scrape(mq, scraper), 'miniqueue_push_consecutive_failures{queue="visible-q"}');
    await eventually(async () => (await gauge()) >= 3, 'the gauge shows the consecutive failures');

    // One line for the first failure; the others wait for the next minute's line, which counts them.
    const lines = pushLogLines('visible-q');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, queue: 'visible-q', failures: 1, reason: 'http_5xx', last_error: 'push endpoint answered 503' });
    expect(lines[0].url).toBe(`${receiver.url}/visible?redacted`);
    expect(capturedLogLines().join('\n')).not.toContain('hook-token-do-not-log');

    receiver.answer = (_request, response) => response.end('ok');
    await skipBackoff('visible-q');
    await eventually(async () => (await statusOf(mq, id))?.status === 'ACKED', 'pushed once the endpoint recovers');
    await eventually(async () => (await endpointOf('visible-q')).consecutive_failures === 0, 'the failures reset by the success');
    const recovered = await endpointOf('visible-q');
    expect(recovered.last_error).toBe('push endpoint answered 503');
    expect(Date.parse(recovered.last_success_at)).toBeGreaterThanOrEqual(Date.parse(recovered.last_error_at));
    expect((await queueStats('visible-q')).push_consecutive_failures).toBe(0);
  });

  it('names a refused connection as such, in the counter and the last error', async () => {
    const closed = await startReceiver();
    const url = `${closed.url}/gone`;
    await closed.close();
    await topology(mq, 'unreachable', [{ name: 'unreachable-q', max_retries: 50 }]);
    expect((await setPush('unreachable-q', { url, max_in_flight: 1 })).status).toBe(201);
    await publishOne(mq, 'unreachable', 'x');
    await eventually(async () => (await failuresOf('unreachable-q', 'connection')) >= 1, 'a connection failure counted');
    await eventually(async () => (await endpointOf('unreachable-q')).consecutive_failures >= 1, 'stored');
    expect((await endpointOf('unreachable-q')).last_error).toBe('push delivery failed (connection: ECONNREFUSED)');
  });

  it('a queue without a push endpoint has no push failures in its stats', async () => {
    await topology(mq, 'plain', [{ name: 'plain-q' }]);
    expect((await queueStats('plain-q')).push_consecutive_failures).toBeNull();
  });
});
