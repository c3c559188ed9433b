import { beforeAll, describe, expect, it } from 'vitest';
import {
  CLOSE_CREDENTIAL_ENDED,
  ConnectionError,
  EVENTS_DROPPED,
  ForbiddenError,
  MiniQueue,
  parseMonitorEvent,
  type Monitor,
  type MonitorClosed,
  type MonitorEvent,
  type MonitorOptions,
  type MonitorStatus,
} from '../../src/index.js';
import { realtimeHub } from '@miniqueue/api/testing';
import { brokerForFile, until, type SdkBroker } from '../helpers/broker.js';
import { startTcpProxy } from '../helpers/tcpProxy.js';

let env: SdkBroker;
brokerForFile((started) => (env = started));
beforeAll(async () => {
  await env.admin.topics.create('watched');
  await env.admin.queues.create('watched-a', 'watched');
  await env.admin.topics.create('other');
  await env.admin.queues.create('other-q', 'other');
});

/** Everything a monitor reports, in order. */
function record(monitor: Monitor) {
  const seen = { events: [] as MonitorEvent[], statuses: [] as MonitorStatus[], closes: [] as MonitorClosed[], errors: [] as Error[] };
  monitor.on('event', (event) => seen.events.push(event));
  monitor.on('status', (status) => seen.statuses.push(status));
  monitor.on('close', (closed) => seen.closes.push(closed));
  monitor.on('error', (error) => seen.errors.push(error));
  return seen;
}

/** A started monitor of this client, once its socket is open. */
async function opened(client: MiniQueue, options?: MonitorOptions) {
  const monitor = client.monitor(options);
  const seen = record(monitor);
  monitor.start();
  await until(() => monitor.status === 'open', 10_000, 'open');
  return { monitor, seen };
}

/** The client's shared stream (the default), and /ws/monitor (`transport: 'http'`): the same monitor either way. */
const TRANSPORTS = ['stream', 'http'] as const;
type Transport = (typeof TRANSPORTS)[number];
const paths: Record<Transport, string> = { stream: '/ws/v1/stream', http: '/ws/monitor' };

const published = (events: MonitorEvent[], queue: string) => events.filter((event) => event.eventType === 'PUBLISHED' && event.queueName === queue);

describe.each(TRANSPORTS)('the monitor over %s', (transport) => {
  const client = (name: string, scopes: string[]) => env.client(`${name}-${transport}`, scopes, { transport });
  const admin = () => (transport === 'http' ? new MiniQueue({ url: env.broker.url, apiKey: env.broker.adminKey, transport }) : env.admin);

  it('opens with the key in the handshake and passes on every transition', async () => {
    const { monitor, seen } = await opened(await client('monitor-viewer', ['view']));
    expect(monitor.url).toBe(`${env.broker.url.replace('http', 'ws')}${paths[transport]}`);

    const {
      message_ids: [id],
    } = await env.admin.publish('watched', 'hello');
    await until(() => published(seen.events, 'watched-a').length > 0, 10_000, 'PUBLISHED');
    const [event] = published(seen.events, 'watched-a');
    expect(event.detail).toContain(id);
    expect(Object.keys(event).sort()).toEqual(['count', 'detail', 'eventType', 'queueName', 'timestamp']);
    expect(event.count).toBe(1);

    await monitor.stop();
    expect(seen.statuses).toEqual(['connecting', 'open', 'stopped']);
    expect(seen.errors).toEqual([]);
    expect(seen.closes).toEqual([]); // stop() is no drop
  });

  it('with a queue, passes on only that queue’s events', async () => {
    const { monitor, seen } = await opened(admin(), { queue: 'WATCHED-A' });
    await env.admin.publish('other', 'not this one');
    await env.admin.publish('watched', 'this one');
    await until(() => seen.events.length > 0, 10_000, 'an event');
    await env.admin.publish('other', 'nor this one');
    await env.admin.publish('watched', 'and this one');
    await until(() => seen.events.length > 1, 10_000, 'a second event');
    await monitor.stop();
    expect(seen.events.map((event) => event.queueName)).toEqual(seen.events.map(() => 'watched-a'));
  });

  it('reports a refused handshake as the typed error, with the broker’s message, and keeps trying', async () => {
    const producer = await client('monitor-producer', ['publish:*']);
    const monitor = producer.monitor({ maxReconnectDelayMs: 300 });
    const seen = record(monitor);
    monitor.start();
    await until(() => seen.errors.length >= 2, 10_000, 'two refusals');
    await monitor.stop();
    expect(seen.errors[0]).toBeInstanceOf(ForbiddenError);
    expect(seen.errors[0]).toMatchObject({ status: 403, message: expect.stringContaining('view') });
    expect(seen.statuses).not.toContain('open');
    expect(seen.statuses.slice(0, 3)).toEqual(['connecting', 'reconnecting', 'reconnecting']);
  });

  it('tells when the broker closes the socket because its credential ended', async () => {
    const { monitor, seen } = await opened(await client('monitor-doomed', ['view']));
    await env.admin.clients.delete(`monitor-doomed-${transport}`);
    await until(() => seen.closes.length > 0, 10_000, 'close');
    await monitor.stop();
    expect(seen.closes[0]).toMatchObject({ code: CLOSE_CREDENTIAL_ENDED, credentialEnded: true });
  });

  it('reconnects after the connection drops, and reports an unreachable broker as a ConnectionError', async () => {
    const proxy = await startTcpProxy(env.broker.url);
    const viewer = new MiniQueue({ url: proxy.url, apiKey: env.broker.adminKey, transport });
    const monitor = viewer.monitor({ maxReconnectDelayMs: 300 });
    const seen = record(monitor);
    try {
      monitor.start();
      await until(() => monitor.status === 'open', 10_000, 'open');
      proxy.refuse(true);
      proxy.cut();
      await until(() => seen.closes.length === 1 && seen.errors.length > 0, 10_000, 'a drop, then a failed attempt');
      expect(seen.closes[0]).toMatchObject({ code: 1006, credentialEnded: false });
      expect(seen.errors[0]).toBeInstanceOf(ConnectionError);
      expect(seen.errors[0]).toMatchObject({ status: 0 });

      proxy.refuse(false);
      await until(() => monitor.status === 'open', 10_000, 'open again');
      await env.admin.publish('watched', 'after the drop');
      await until(() => published(seen.events, 'watched-a').length > 0, 10_000, 'an event after reconnecting');
      expect(seen.statuses.filter((status) => status === 'open')).toHaveLength(2);
    } finally {
      await monitor.stop();
      viewer.close();
      await proxy.close();
    }
    const attempts = seen.statuses.length;
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(seen.statuses).toHaveLength(attempts); // stopped for good
  });
});

describe.each(TRANSPORTS)('stopping over %s', (transport) => {
  // The broker's viewers of its live feed: /ws/monitor sockets and the streams' watches.
  const monitorsHeld = () => realtimeHub(env.broker.broker.server).counts().monitors;

  it('holds one viewer however often it is started, none once stopped, and a restart drops the attempt in flight', async () => {
    const monitor = new MiniQueue({ url: env.broker.url, apiKey: env.broker.adminKey, transport }).monitor();
    monitor.start().start();
    await monitor.stop();
    monitor.start();
    await until(() => monitor.status === 'open' && monitorsHeld() === 1, 10_000, 'one socket');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(monitorsHeld()).toBe(1);
    await monitor.stop();
    await until(() => monitorsHeld() === 0, 10_000, 'no socket');
    expect(monitor.status).toBe('stopped');
  });
});

describe('a monitor frame', () => {
  const frame = { eventType: 'PUBLISHED', queueName: 'q', detail: 'Message 1 published to q', count: 1, timestamp: '2026-01-01T00:00:00Z' };

  it('is read when it has the event’s fields, and refused otherwise', () => {
    expect(parseMonitorEvent(JSON.stringify(frame))).toEqual(frame);
    expect(parseMonitorEvent(JSON.stringify({ ...frame, eventType: EVENTS_DROPPED, queueName: null }))?.queueName).toBeNull();
    expect(parseMonitorEvent(JSON.stringify({ ...frame, extra: 1 }))).toEqual(frame);
    const { count: _, ...withoutCount } = frame;
    expect(parseMonitorEvent(JSON.stringify(withoutCount))).toEqual(frame); // a broker from before count
    expect(parseMonitorEvent('not json')).toBeNull();
    expect(parseMonitorEvent(JSON.stringify({ eventType: 'PUBLISHED' }))).toBeNull();
    expect(parseMonitorEvent(JSON.stringify([1, 2]))).toBeNull();
    expect(parseMonitorEvent(new ArrayBuffer(4))).toBeNull();
  });
});
