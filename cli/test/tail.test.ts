import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { as, startBroker, type TestBroker } from './helpers/broker.js';
import { startCli } from './helpers/cli.js';

let broker: TestBroker;
let admin: ReturnType<typeof as>;
/** Why the monitor tests cannot run here, or null when the broker serves /ws/monitor. */
let unavailable: string | null = null;

/** Whether this broker serves /ws/monitor to a key with the view scope. */
async function probeMonitor(url: string, key: string): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/ws/monitor`, { headers: { Authorization: `Bearer ${key}` } });
    socket.once('open', () => {
      socket.close();
      resolve(null);
    });
    socket.once('unexpected-response', (_request, response) => resolve(`the broker answers ${response.statusCode} on /ws/monitor`));
    socket.once('error', (error) => resolve(`no /ws/monitor: ${error.message}`));
  });
}

beforeAll(async () => {
  broker = await startBroker();
  admin = as(broker);
  unavailable = await probeMonitor(broker.url, broker.adminKey);
  await admin('topics:create', 'watched');
  await admin('queues:create', 'watched-a', '--topic', 'watched');
  await admin('topics:create', 'other');
  await admin('queues:create', 'other-q', '--topic', 'other');
});
afterAll(async () => {
  await broker?.stop();
});

function requireMonitor(context: TestContext): void {
  if (unavailable) context.skip(`/ws/monitor is not served yet (${unavailable})`);
}

function tail(key: string, ...flags: string[]) {
  return startCli(['tail', ...flags], { env: { MINIQUEUE_URL: broker.url, MINIQUEUE_API_KEY: key } });
}

async function publish(topic: string, payload: string): Promise<void> {
  const response = await broker.post(`/api/v1/topics/${topic}/messages`, { payload }, broker.adminKey);
  expect(response.status).toBe(201);
}

describe('tail', () => {
  it('prints every event until Ctrl-C, then exits 130', async (context) => {
    requireMonitor(context);
    const viewer = await broker.clientKey('tail-viewer', ['view']);
    const running = tail(viewer);
    await running.waitFor('stderr', /Watching ws:\/\/127\.0\.0\.1:\d+\/ws\/v1\/stream/);
    await publish('watched', 'hello');
    await running.waitFor('stdout', /PUBLISHED\s+Message [0-9a-f-]{36} published to watched-a/);
    await admin('consume', 'watched-a');
    await running.waitFor('stdout', /ACKED\s+Message [0-9a-f-]{36} acknowledged on watched-a/);
    expect(running.stdout()).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ {2}PUBLISHED /m);
    running.signal('SIGINT');
    const result = await running.done;
    expect(result.exitCode).toBe(130);
    expect(result.stdout + result.stderr).not.toContain(viewer);
  });

  it('--json --queue streams only that queue, one JSON event per line', async (context) => {
    requireMonitor(context);
    const running = tail(broker.adminKey, '--json', '--queue', 'watched-a');
    await running.waitFor('stderr', /Watching/);
    await publish('other', 'not this one');
    await publish('watched', 'this one');
    await running.waitFor('stdout', /"eventType":"PUBLISHED"/);
    running.signal('SIGINT');
    const result = await running.done;
    expect(result.exitCode).toBe(130);
    const events = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) {
      expect(Object.keys(event).sort()).toEqual(['count', 'detail', 'eventType', 'messageId', 'queueName', 'reason', 'timestamp']);
      expect(event.queueName).toBe('watched-a');
    }
    const published = events.find((event) => event.eventType === 'PUBLISHED');
    expect(published.messageId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(published.detail).toContain(published.messageId);
  });

  it('--transport http watches on /ws/monitor, with the same events', async (context) => {
    requireMonitor(context);
    const running = tail(broker.adminKey, '--transport', 'http', '--queue', 'watched-a');
    await running.waitFor('stderr', /Watching ws:\/\/127\.0\.0\.1:\d+\/ws\/monitor/);
    await publish('watched', 'over the monitor socket');
    await running.waitFor('stdout', /PUBLISHED\s+Message [0-9a-f-]{36} published to watched-a/);
    running.signal('SIGINT');
    expect((await running.done).exitCode).toBe(130);
  });

  it('a key without the view scope is refused: exit 3', async (context) => {
    requireMonitor(context);
    const producer = await broker.clientKey('tail-producer', ['publish:*']);
    const result = await tail(producer).done;
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toMatch(/^Error: .+\nHint: Your key \(tail-producer\) has: publish:\*\./);
  });

  it('stops with exit 3 when its key is revoked while watching', async (context) => {
    requireMonitor(context);
    const doomed = await broker.clientKey('tail-doomed', ['view']);
    const running = tail(doomed);
    await running.waitFor('stderr', /Watching/);
    await admin('clients:revoke', 'tail-doomed', '--yes');
    const result = await running.done;
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toContain('this credential was revoked or its session ended');
  });
});
