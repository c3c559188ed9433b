import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserForFile, openSdkTab } from '../helpers/browserPage.js';
import { startTcpProxy } from '../helpers/tcpProxy.js';

/** Every WebSocket the page opened, with the types of the frames that went each way. */
interface SocketLog {
  url: URL;
  sent: string[];
  received: string[];
}

/** Frame types of one WebSocket message: a frame, or a JSON array of frames. */
function frameTypes(payload: string | Buffer): string[] {
  const parsed = JSON.parse(String(payload)) as { type: string } | { type: string }[];
  return (Array.isArray(parsed) ? parsed : [parsed]).map((frame) => frame.type);
}

function watchNetwork(tab: Page): { sockets: SocketLog[]; httpPaths: string[] } {
  const sockets: SocketLog[] = [];
  const httpPaths: string[] = [];
  tab.on('websocket', (socket) => {
    const log: SocketLog = { url: new URL(socket.url()), sent: [], received: [] };
    sockets.push(log);
    socket.on('framesent', (frame) => log.sent.push(...frameTypes(frame.payload)));
    socket.on('framereceived', (frame) => log.received.push(...frameTypes(frame.payload)));
  });
  tab.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/')) httpPaths.push(`${request.method()} ${url.pathname}`);
  });
  return { sockets, httpPaths };
}

interface PageState {
  handled: string[];
  errors: string[];
  warnings: string[];
}

// The SDK's default transport in a page: the global WebSocket, authenticated by a ticket.
describe('streams in a browser', () => {
  const setup = browserForFile({ MINIQUEUE_STREAM_RESUME_GRACE_MS: '200' });

  it('publishes and consumes over one stream, no message over HTTP, and carries on over a new stream after a drop', async () => {
    const { env } = setup();
    await env.admin.topics.create('streamed');
    await env.admin.queues.create('streamed', 'streamed');
    const key = (await env.admin.clients.create('browser-streams', ['publish:streamed', 'consume:streamed'])).api_key;
    const proxy = await startTcpProxy(env.broker.url);
    let network!: ReturnType<typeof watchNetwork>;
    const tab = await openSdkTab(setup(), (opened) => (network = watchNetwork(opened)));
    try {
      await tab.evaluate(
        ({ url, key }) => {
          const sdk = (window as unknown as { sdk: typeof import('../../src/index.js') }).sdk;
          const state: PageState = { handled: [], errors: [], warnings: [] };
          const mq = new sdk.MiniQueue({ url, apiKey: key, logger: { warn: (message) => state.warnings.push(message) } });
          const consumer = mq.consumer('streamed', (message) => void state.handled.push(message.payload), { concurrency: 4 });
          consumer.on('error', (error) => state.errors.push(String(error)));
          consumer.start();
          Object.assign(window, { mq, consumer, state });
        },
        { url: proxy.url, key },
      );
      const publish = (from: number, to: number) =>
        tab.evaluate(
          async ({ from, to }) => {
            const { mq } = window as unknown as { mq: import('../../src/index.js').MiniQueue };
            const confirms = await Promise.all(Array.from({ length: to - from }, (_, i) => mq.publish('streamed', `m${from + i}`)));
            return confirms.map((confirm) => confirm.duplicate);
          },
          { from, to },
        );
      const state = () => tab.evaluate(() => (window as unknown as { state: PageState }).state);
      const handled = async () => new Set((await state()).handled).size;

      expect(await publish(0, 20)).toEqual(Array(20).fill(false));
      await expect.poll(handled, { timeout: 10_000 }).toBe(20);

      // The network drops every connection: the client opens a new stream (a fresh ticket),
      // subscribes again, and what it publishes next is delivered through it.
      proxy.cut();
      await expect.poll(() => publish(20, 40), { timeout: 15_000 }).toHaveLength(20);
      await expect.poll(handled, { timeout: 15_000 }).toBe(40);
      await tab.evaluate(() => (window as unknown as { consumer: { stop(): Promise<void> } }).consumer.stop());

      const final = await state();
      expect(final.warnings).toEqual([]); // no fallback to HTTP was announced
      expect([...new Set(final.handled)].sort()).toEqual(Array.from({ length: 40 }, (_, i) => `m${i}`).sort());

      const streams = network.sockets.filter((socket) => socket.url.pathname === '/ws/v1/stream');
      expect(streams.length).toBeGreaterThanOrEqual(2);
      for (const stream of streams) {
        expect(stream.url.searchParams.get('ticket')).toMatch(/^wst_/);
        expect(stream.received[0]).toBe('welcome');
      }
      const sent = streams.flatMap((stream) => stream.sent);
      const received = streams.flatMap((stream) => stream.received);
      for (const type of ['publish', 'subscribe', 'ack']) expect(sent).toContain(type);
      for (const type of ['confirm', 'subscribed', 'deliver']) expect(received).toContain(type);
      expect(received.filter((type) => type === 'confirm').length).toBeGreaterThanOrEqual(40);
      // HTTP carried the tickets only: no publish, claim or ack went over it.
      expect(new Set(network.httpPaths)).toEqual(new Set(['POST /api/v1/auth/ws-ticket']));

      // Every message was acked: nothing is left pending or held on the broker.
      const live = await env.broker.pool.query<{ count: string }>('SELECT count(*) FROM message WHERE queue_name = $1', ['streamed']);
      expect(Number(live.rows[0].count)).toBe(0);
    } finally {
      await tab.close();
      await proxy.close();
    }
  });
});
