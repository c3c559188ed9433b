import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaseSweeper } from '../../src/jobs/leaseSweeper.js';
import { PushWorker } from '../../src/push/pushWorker.js';
import { PushTargets } from '../../src/push/targets.js';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { eventually } from '../helpers/eventually.js';
import { publishOne, statusOf, topology } from '../helpers/fixtures.js';
import { startReceiver, type Receiver } from './receiver.js';
import { PUSH_ENV } from './support.js';

let mq: TestBroker;
let receiver: Receiver;

beforeAll(async () => {
  mq = await startTestBroker({ env: PUSH_ENV });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await mq.stop();
});

const setPush = (queue: string, body: Record<string, unknown>) => mq.request('PUT', `/api/v1/queues/${queue}/push`, { body, key: mq.adminKey });

/** Makes every PENDING message of the queue claimable now, instead of waiting out its backoff. */
const skipBackoff = (queue: string) => mq.pool.query(`UPDATE message SET available_at = now() WHERE queue_name = $1 AND status = 'PENDING'`, [queue]);

describe('push endpoints', () => {
  it('shows the secret once, keeps it encrypted, and keeps it when the endpoint changes', async () => {
    await topology(mq, 'hooks', [{ name: 'hooked' }]);
    const created = await setPush('hooked', { url: `${receiver.url}/first` });
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^mqwh_[A-Za-z0-9_-]{43}$/);
    const read = await mq.get('/api/v1/queues/hooked/push', mq.adminKey);
    expect(read.body).not.toHaveProperty('secret');
    expect(read.body).toMatchObject({ queue: 'hooked', url: `${receiver.url}/first`, max_in_flight: 4, timeout_seconds: 10 });
    const changed = await setPush('hooked', { url: `${receiver.url}/hook`, max_in_flight: 2 });
    expect(changed.status).toBe(200);
    expect(changed.body).not.toHaveProperty('secret');
    const stored = (await mq.pool.query(`SELECT * FROM queue_push WHERE queue_name = 'hooked'`)).rows[0];
    expect(JSON.stringify(stored)).not.toContain(created.body.secret.slice(5));

    const rotated = await mq.post('/api/v1/queues/hooked/push/rotate-secret', undefined, mq.adminKey);
    expect(rotated.body.secret).toMatch(/^mqwh_/);
    expect(rotated.body.secret).not.toBe(created.body.secret);
    expect(Date.parse(rotated.body.previous_secret_until)).toBeGreaterThan(Date.now());
    secrets = [rotated.body.secret, created.body.secret];
  });

  let secrets: string[] = [];

  it('POSTs each message signed over timestamp and body; a 2xx acks it', async () => {
    const [id] = await publishOne(mq, 'hooks', '{"orderId":42}');
    await eventually(async () => (await statusOf(mq, id))?.status === 'ACKED', 'the pushed message acked');
    const got = receiver.received.find((request) => request.headers['miniqueue-message-id'] === id);
    expect(got?.path).toBe('/hook');
    expect(JSON.parse(got!.body)).toMatchObject({ message_id: id, queue: 'hooked', topic: 'hooks', payload: '{"orderId":42}', retry_count: 0 });
    const [t, ...v1] = String(got!.headers['miniqueue-signature']).split(',');
    const timestamp = Number(t.slice(2));
    expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(60);
    // After the rotation both secrets sign, the new one first.
    const expected = secrets.map((secret) => `v1=${createHmac('sha256', secret).update(`${timestamp}.${got!.body}`).digest('hex')}`);
    expect(v1).toEqual(expected);
    expect(got!.headers['miniqueue-delivery-attempt']).toBe('1');
  });

  it('a 500 backs off with growing waits and ends in the dead-letter queue after the retries', async () => {
    await topology(mq, 'failing', [{ name: 'failing-q', max_retries: 2 }]);
    expect((await setPush('failing-q', { url: `${receiver.url}/fail` })).status).toBe(201);
    receiver.answer = (request, response) => {
      response.statusCode = request.path === '/fail' ? 500 : 200;
      response.end();
    };
    const [id] = await publishOne(mq, 'failing', 'x');
    const attempts = () => receiver.received.filter((request) => request.headers['miniqueue-message-id'] === id);
    for (const attempt of [1, 2]) {
      await eventually(async () => (await statusOf(mq, id))?.retry_count === attempt, `failure ${attempt} nacked`);
      const { rows } = await mq.pool.query(`SELECT extract(epoch FROM available_at - now()) AS wait FROM message WHERE id = $1`, [id]);
      // Jittered, in the upper half of a ceiling of 1 s, then 2 s.
      expect(Number(rows[0].wait)).toBeGreaterThan(0);
      await skipBackoff('failing-q');
    }
    await eventually(async () => (await statusOf(mq, id))?.status === 'DEAD', 'dead after the retries');
    expect(attempts().map((request) => request.headers['miniqueue-delivery-attempt'])).toEqual(['1', '2', '3']);
    // The dead letter says what the endpoint last answered.
    const dead = await mq.get(`/api/v1/messages/${id}`, mq.adminKey);
    expect(dead.body).toMatchObject({ status: 'DEAD', dead_reason: 'RETRIES_EXHAUSTED' });
    expect(dead.body.dead_detail).toMatch(/push endpoint answered 500/);
  });

  it('a timeout is a failure too', async () => {
    await topology(mq, 'slow', [{ name: 'slow-q', max_retries: 0 }]);
    expect((await setPush('slow-q', { url: `${receiver.url}/slow`, timeout_seconds: 1 })).status).toBe(201);
    receiver.answer = (request, response) => {
      if (request.path !== '/slow') response.end();
      // /slow never answers.
    };
    const [id] = await publishOne(mq, 'slow', 'x');
    await eventually(async () => (await statusOf(mq, id))?.status === 'DEAD', 'dead after the timeout');
  });

  it('follows no redirect: a 3xx is a failure, and its target is never asked', async () => {
    await topology(mq, 'moved', [{ name: 'moved-q', max_retries: 0 }]);
    expect((await setPush('moved-q', { url: `${receiver.url}/moved` })).status).toBe(201);
    receiver.answer = (request, response) => {
      if (request.path === '/moved') {
        response.writeHead(307, { location: `${receiver.url}/elsewhere` });
        response.end();
      } else response.end('ok');
    };
    const [id] = await publishOne(mq, 'moved', 'x');
    await eventually(async () => (await statusOf(mq, id))?.status === 'DEAD', 'dead after the redirect');
    expect(receiver.received.filter((request) => request.path === '/elsewhere')).toEqual([]);
  });
});

describe('an instance that dies while pushing', () => {
  it('leaves a lease that runs out; the message is then redelivered by another instance', async () => {
    await topology(mq, 'crash', [{ name: 'crash-q' }]);
    receiver.answer = (_request, response) => response.end('ok');
    expect((await setPush('crash-q', { url: `${receiver.url}/crash`, max_in_flight: 1 })).status).toBe(201);
    // A pusher on another instance claimed these two, then died: its leases are still running.
    const [first] = await publishOne(mq, 'crash', 'a');
    const [second] = await publishOne(mq, 'crash', 'b');
    await mq.pool.query(
      `UPDATE message SET status = 'UNACKED', holder = 'push:dead-instance', consumer_id = 'push@dead', unacked_at = now(),
              lease_expires_at = now() + interval '1 hour' WHERE id = $1`,
      [first],
    );
    // Its lease counts against max_in_flight (1), on every instance: the second waits behind it.
    const { rows } = await mq.pool.query(`SELECT count(*)::int AS n FROM message WHERE queue_name = 'crash-q' AND starts_with(holder, 'push:')`);
    expect(rows[0].n).toBe(1);
    await mq.pool.query(`UPDATE message SET lease_expires_at = now() - interval '1 second' WHERE id = $1`, [first]);
    await leaseSweeper(mq.pool, mq.broker.context.changes).runOnce();
    await eventually(async () => (await statusOf(mq, first))?.status === 'ACKED' && (await statusOf(mq, second))?.status === 'ACKED', 'both pushed');
    const redelivered = receiver.received.find((request) => request.headers['miniqueue-message-id'] === first);
    expect(redelivered?.headers['miniqueue-delivery-attempt']).toBe('2');
  });
});

describe('where pushes may go', () => {
  it('refuses private, reserved, public-when-closed, non-https and credentialled URLs when the endpoint is set', async () => {
    await topology(mq, 'ssrf', [{ name: 'ssrf-q' }]);
    for (const [url, reason] of [
      ['https://10.0.0.1/hook', /private, loopback or reserved/],
      ['https://169.254.169.254/latest/meta-data', /private, loopback or reserved/],
      ['https://[::ffff:192.168.1.1]/', /private, loopback or reserved/],
      ['https://[fd00::1]/', /private, loopback or reserved/],
      ['https://93.184.216.34/', /not in MINIQUEUE_PUSH_ALLOWED_NETWORKS/],
      ['http://10.0.0.1/', /private, loopback or reserved/],
      ['ftp://127.0.0.1/', /must be https/],
      ['https://user:pw@127.0.0.1/', /credentials/],
      ['not a url', /absolute URL/],
    ] as const) {
      const refused = await setPush('ssrf-q', { url });
      expect(refused.status, url).toBe(400);
      expect(refused.body.code).toBe('push_target_refused');
      expect(refused.body.errors[0]).toMatchObject({ field: 'url', message: expect.stringMatching(reason) });
    }
    expect((await mq.get('/api/v1/queues/ssrf-q/push', mq.adminKey)).body.code).toBe('push_endpoint_not_found');
  });

  it('in production, http is refused even to loopback, and loopback is private', async () => {
    const production = new PushTargets({ publicTargets: true, allowedNetworks: [], allowHttpLoopback: false });
    await expect(production.check(`${receiver.url}/hook`)).rejects.toThrow(/must be https/);
    await expect(production.check('https://127.0.0.1/hook')).rejects.toThrow(/private, loopback or reserved/);
    await expect(production.check('https://93.184.216.34/')).resolves.toMatchObject({ address: '93.184.216.34' });
  });

  it('checks the addresses again at delivery: a name that now resolves inside the network is never posted to', async () => {
    await topology(mq, 'rebind', [{ name: 'rebind-q', max_retries: 0 }]);
    // localhost resolves to loopback, which this broker allows: the endpoint is accepted.
    expect((await setPush('rebind-q', { url: `http://localhost:${receiver.port}/rebind` })).status).toBe(201);
    // This instance's own pusher gives way to one whose resolver says the name moved to 10.0.0.5.
    const own = mq.broker.core.pushWorker;
    await own.stop();
    const rebound = new PushTargets(mq.config.push, async () => [{ address: '10.0.0.5', family: 4 }]);
    const worker = new PushWorker({
      pool: mq.pool,
      settler: mq.broker.context.settler,
      changes: mq.broker.context.changes,
      config: mq.config.push,
      instanceId: 'rebind-test',
      targets: rebound,
      logError: () => undefined,
      log: () => undefined,
      countFailure: () => undefined,
    });
    await worker.start();
    try {
      const [id] = await publishOne(mq, 'rebind', 'x');
      await eventually(async () => (await statusOf(mq, id))?.status === 'DEAD', 'dead: the target was refused');
      expect(receiver.received.filter((request) => request.path === '/rebind')).toEqual([]);
    } finally {
      await worker.stop();
      await own.start();
    }
  });

  it('answers 404 for a queue that does not exist, and 403 to a viewer who sets one', async () => {
    expect((await setPush('nowhere', { url: `${receiver.url}/x` })).body.code).toBe('queue_not_found');
    const viewer = await mq.clientKey('push-viewer', ['view']);
    expect((await mq.request('PUT', '/api/v1/queues/hooked/push', { body: { url: `${receiver.url}/x` }, key: viewer })).status).toBe(403);
    expect((await mq.get('/api/v1/queues/hooked/push', viewer)).status).toBe(200);
    expect((await mq.del('/api/v1/queues/hooked/push', mq.adminKey)).status).toBe(204);
    expect((await mq.del('/api/v1/queues/hooked/push', mq.adminKey)).body.code).toBe('push_endpoint_not_found');
  });
});
