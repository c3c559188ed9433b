import { createServer, type Server } from 'node:http';
import { connect as tcpConnect, type AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { MiniQueue, type MonitorEvent } from '../../src/index.js';
import { countUpgrades as countUpgradesOf } from '../helpers/upgrades.js';
import { brokerForFile, until, type SdkBroker } from '../helpers/broker.js';

let env: SdkBroker;
brokerForFile((started) => (env = started));
beforeAll(async () => {
  await env.admin.topics.create('seen');
  await env.admin.queues.create('seen-q', 'seen');
});

const countUpgrades = () => countUpgradesOf(env);

/** The broker as one that has no streams yet looks to a client: /ws/v1/stream answers 404, every other WebSocket goes through. */
async function withoutStreams(target: string): Promise<{ url: string; server: Server }> {
  const { hostname, port } = new URL(target);
  const server = createServer((_request, response) => response.writeHead(502).end());
  server.on('upgrade', (request, socket, head) => {
    if (request.url?.startsWith('/ws/v1/stream')) {
      return void socket.end('HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}');
    }
    const upstream = tcpConnect(Number(port), hostname, () => {
      const headers = [];
      for (let i = 0; i < request.rawHeaders.length; i += 2) headers.push(`${request.rawHeaders[i]}: ${request.rawHeaders[i + 1]}`);
      upstream.write(`${request.method} ${request.url} HTTP/1.1\r\n${headers.join('\r\n')}\r\n\r\n`);
      upstream.write(head);
      socket.pipe(upstream).pipe(socket);
    });
    for (const end of [socket, upstream]) end.on('error', () => undefined);
    socket.on('close', () => upstream.destroy());
    upstream.on('close', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const publishedTo = (events: MonitorEvent[], queue: string) => events.filter((event) => event.eventType === 'PUBLISHED' && event.queueName === queue);

describe('monitor() on the client’s stream', () => {
  it('watches on the stream the client publishes on: one WebSocket, no /ws/monitor', async () => {
    const upgrades = countUpgrades();
    const client = new MiniQueue({ url: env.broker.url, apiKey: env.broker.adminKey });
    const monitor = client.monitor({ queue: 'seen-q' });
    const events: MonitorEvent[] = [];
    monitor.on('event', (event) => events.push(event));
    monitor.start();
    await until(() => monitor.status === 'open', 10_000, 'open');
    const { message_ids: ids } = await client.publish('seen', 'over the same stream');
    await until(() => publishedTo(events, 'seen-q').length > 0, 10_000, 'PUBLISHED');
    expect(publishedTo(events, 'seen-q')[0].detail).toContain(ids[0]);
    expect(Object.fromEntries(upgrades)).toEqual({ '/ws/v1/stream': 1 });
    await monitor.stop();
    client.close();
  });

  it('falls back to /ws/monitor where the stream cannot open, saying why once, with the same events', async () => {
    const proxy = await withoutStreams(env.broker.url);
    const warnings: string[] = [];
    const client = new MiniQueue({ url: proxy.url, apiKey: env.broker.adminKey, logger: { warn: (message) => warnings.push(message) } });
    const monitor = client.monitor({ queue: 'seen-q' });
    const events: MonitorEvent[] = [];
    monitor.on('event', (event) => events.push(event));
    try {
      monitor.start();
      await until(() => monitor.status === 'open', 10_000, 'open');
      expect(monitor.url).toBe(`${proxy.url.replace('http', 'ws')}/ws/monitor`);
      await env.admin.publish('seen', 'over /ws/monitor');
      await until(() => publishedTo(events, 'seen-q').length > 0, 10_000, 'PUBLISHED');
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/streaming is unavailable .*404.*\/ws\/monitor/);
    } finally {
      await monitor.stop();
      client.close();
      proxy.server.closeAllConnections();
      await new Promise((resolve) => proxy.server.close(resolve));
    }
  });
});
