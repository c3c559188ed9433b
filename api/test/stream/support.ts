import WebSocket from 'ws';
import type { TestBroker } from '../helpers/broker.js';

/** A raw stream client for tests: every frame received, flattened out of the arrays they came in. */
export interface TestStream {
  ws: WebSocket;
  frames: any[];
  welcome: any;
  closed: Promise<{ code: number; reason: string }>;
  send(frames: object | object[]): void;
  /** The first frame (from `from` on) that matches; waits up to `ms` for it. */
  next(match: (frame: any) => boolean, ms?: number, from?: number): Promise<any>;
  /** Every frame matching, once there are `count` of them. */
  collect(match: (frame: any) => boolean, count: number, ms?: number): Promise<any[]>;
  close(): Promise<void>;
}

export interface StreamOptions {
  key: string;
  query?: string;
  protocols?: string[];
  /** Told of every WebSocket message as it arrives (parsed: a frame, or an array of frames). */
  onMessage?: (data: unknown) => void;
}

const streamUrl = (mq: Pick<TestBroker, 'url'>, query = '') => `${mq.url.replace(/^http/, 'ws')}/ws/v1/stream${query ? `?${query}` : ''}`;

export function openStream(mq: Pick<TestBroker, 'url'>, options: StreamOptions): Promise<TestStream> {
  const ws = new WebSocket(streamUrl(mq, options.query), options.protocols ?? ['miniqueue.v1'], { headers: { authorization: `Bearer ${options.key}` } });
  const frames: any[] = [];
  const waiters = new Set<() => void>();
  ws.on('message', (data) => {
    const parsed = JSON.parse(String(data));
    options.onMessage?.(parsed);
    frames.push(...(Array.isArray(parsed) ? parsed : [parsed]));
    for (const wake of [...waiters]) wake();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
  const waitFor = <T>(check: () => T | undefined, ms: number, what: string): Promise<T> =>
    new Promise((resolve, reject) => {
      const attempt = () => {
        const found = check();
        if (found === undefined) return false;
        clearTimeout(timer);
        waiters.delete(attempt);
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        waiters.delete(attempt);
        reject(new Error(`no ${what} within ${ms} ms; frames: ${JSON.stringify(frames.slice(-5))}`));
      }, ms);
      if (!attempt()) waiters.add(attempt);
    });
  const stream: TestStream = {
    ws,
    frames,
    welcome: undefined,
    closed,
    send: (value) => ws.send(JSON.stringify(value)),
    next: (match, ms = 5000, from = 0) => waitFor(() => frames.slice(from).find(match), ms, 'matching frame'),
    collect: (match, count, ms = 10_000) =>
      waitFor(
        () => {
          const found = frames.filter(match);
          return found.length >= count ? found : undefined;
        },
        ms,
        `${count} matching frames`,
      ),
    async close() {
      if (ws.readyState === WebSocket.CLOSED) return;
      ws.close();
      await closed;
    },
  };
  return new Promise((resolve, reject) => {
    ws.once('open', async () => {
      stream.welcome = await stream.next((frame) => frame.type === 'welcome');
      resolve(stream);
    });
    ws.once('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk));
      response.on('end', () => reject(Object.assign(new Error(`refused ${response.statusCode}: ${body}`), { status: response.statusCode, body })));
    });
    ws.once('error', reject);
  });
}

export const publishFrame = (seq: number, topic: string, payload = `m${seq}`, extra: object = {}) => ({ type: 'publish', seq, topic, payload, ...extra });
