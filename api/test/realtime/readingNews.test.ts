import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import type { WsReadingEvent } from '../../src/realtime/channels.js';
import { ReadingNews } from '../../src/realtime/readingNews.js';
import { eventually } from './support.js';

/**
 * The dispatcher must hear a socket's "stopped reading" and "reads again" in the order they
 * happened: the other way round, it would pass over a socket that reads, for as long as its view
 * lasts. Told in separate turns of the event loop, faster than one statement commits, the news
 * reaches a LISTEN connection in the order it was told.
 */

let mq: TestBroker;
let listener: pg.Client;
const heard: WsReadingEvent[] = [];

beforeAll(async () => {
  mq = await startTestBroker();
  listener = new pg.Client({ connectionString: mq.databaseUrl });
  await listener.connect();
  listener.on('notification', (message) => heard.push(JSON.parse(message.payload as string)));
  await listener.query('LISTEN miniqueue_ws_reading');
});
afterAll(async () => {
  await listener?.end();
  await mq?.stop();
});

describe('ReadingNews', () => {
  it('reaches the dispatcher in the order it was told, one turn of the event loop apart', async () => {
    const news = new ReadingNews(mq.pool, () => undefined);
    await news.start();
    const told: WsReadingEvent[] = Array.from({ length: 300 }, (_, i) => ({ id: 'socket-1', queue: 'q', reading: i % 2 === 1, ids: [`m${i}`] }));
    for (const event of told) {
      news.tell(event);
      await new Promise((resolve) => setImmediate(resolve));
    }
    await eventually(() => heard.length >= told.length, `${told.length} notifications`);
    await news.stop();
    const outOfOrder = heard.findIndex((event, i) => event.ids[0] !== told[i].ids[0]);
    expect(outOfOrder, `the first notification heard out of the order told (${heard[outOfOrder]?.ids[0]} in place of m${outOfOrder})`).toBe(-1);
    expect(heard).toHaveLength(told.length);
  });
});
