import { describe, expect, it } from 'vitest';
import { browserForFile, openSdkTab } from '../helpers/browserPage.js';
import { startTcpProxy } from '../helpers/tcpProxy.js';

// Never skipped: `npm test` installs Chromium first, or stops saying how to.
describe('in a browser', () => {
  const setup = browserForFile();

  it('publishes, consumes with push notifications over a ticketed WebSocket, and types errors', async () => {
    const { env } = setup();
    await env.admin.topics.create('browser');
    await env.admin.queues.create('browser', 'browser');
    const key = (await env.admin.clients.create('browser-app', ['publish:browser', 'consume:browser'])).api_key;

    const tab = await openSdkTab(setup());
    const result = await tab.evaluate(
      async ({ url, key }) => {
        // The page loaded the bundle as a module and left it on window.
        const sdk = (window as unknown as { sdk: typeof import('../../src/index.js') }).sdk;
        const mq = new sdk.MiniQueue({ url, apiKey: key });
        const published = await mq.publish('browser', 'from a page');
        const claimed = (await mq.consume('browser'))!;
        await mq.ack(claimed.message_id);

        const handled: string[] = [];
        const errors: string[] = [];
        const consumer = mq.consumer('browser', (message) => void handled.push(message.payload), { push: true, waitSeconds: 20 });
        consumer.on('error', (error) => errors.push(String(error)));
        consumer.start();
        await new Promise((resolve) => setTimeout(resolve, 1000)); // the socket opens, the first claim finds nothing
        const announcedAt = Date.now();
        await mq.publish('browser', 'pushed to a page');
        while (handled.length === 0 && Date.now() - announcedAt < 10_000) await new Promise((resolve) => setTimeout(resolve, 20));
        const pushedWithinMs = Date.now() - announcedAt;
        await consumer.stop();

        const missing = await mq.topics.create('nope').catch((error: unknown) => error as Error);
        return {
          duplicate: published.duplicate,
          payload: claimed.payload,
          leaseIsDate: claimed.lease_expires_at instanceof Date,
          handled,
          errors,
          pushedWithinMs,
          errorType: missing.constructor.name,
          isMiniQueueError: missing instanceof sdk.MiniQueueError,
          status: (missing as { status?: number }).status,
        };
      },
      { url: env.broker.url, key },
    );

    expect(result).toMatchObject({
      duplicate: false,
      payload: 'from a page',
      leaseIsDate: true,
      handled: ['pushed to a page'],
      errors: [],
      errorType: 'ForbiddenError',
      isMiniQueueError: true,
      status: 403,
    });
    // The fallback long poll is 20 s away: only the WebSocket notification explains this.
    expect(result.pushedWithinMs).toBeLessThan(5000);
  });

  it('watches the live feed with a fresh ticket on every attempt, through drops and an unreachable broker', async () => {
    const { env } = setup();
    await env.admin.topics.create('watched');
    await env.admin.queues.create('watched', 'watched');
    const viewer = (await env.admin.clients.create('browser-viewer', ['view'])).api_key;
    const proxy = await startTcpProxy(env.broker.url);
    const tab = await openSdkTab(setup());
    try {
      await tab.evaluate(
        ({ url, key }) => {
          const sdk = (window as unknown as { sdk: typeof import('../../src/index.js') }).sdk;
          const seen = { statuses: [] as string[], events: [] as string[] };
          const monitor = new sdk.MiniQueue({ url, apiKey: key }).monitor({ maxReconnectDelayMs: 300 });
          monitor.on('status', (status) => seen.statuses.push(status));
          monitor.on('event', (event) => seen.events.push(`${event.eventType} ${event.queueName}`));
          Object.assign(window, { monitor: monitor.start(), seen });
        },
        { url: proxy.url, key: viewer },
      );
      const seen = () => tab.evaluate(() => (window as unknown as { seen: { statuses: string[]; events: string[] } }).seen);
      const opens = async () => (await seen()).statuses.filter((status) => status === 'open').length;
      await expect.poll(opens, { timeout: 10_000 }).toBe(1);

      await env.admin.publish('watched', 'one');
      await expect.poll(async () => (await seen()).events, { timeout: 10_000 }).toContain('PUBLISHED watched');

      // Unreachable: no ticket can be had; then a drop of an open socket. Tickets are single-use,
      // so opening again proves each attempt fetched its own.
      proxy.refuse(true);
      proxy.cut();
      await expect.poll(async () => (await seen()).statuses.filter((status) => status === 'reconnecting').length, { timeout: 10_000 }).toBeGreaterThan(2);
      proxy.refuse(false);
      await expect.poll(opens, { timeout: 10_000 }).toBe(2);
      proxy.cut();
      await expect.poll(opens, { timeout: 10_000 }).toBe(3);

      await tab.evaluate(() => (window as unknown as { monitor: { stop(): Promise<void> } }).monitor.stop());
      expect((await seen()).statuses.at(-1)).toBe('stopped');
    } finally {
      await tab.close();
      await proxy.close();
    }
  });
});
