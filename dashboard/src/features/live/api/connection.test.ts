import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MonitorConnection, monitorUrl, type ConnectionStatus, type SocketLike } from './connection';
import type { MonitorEvent } from './events';

/** Stands in for the browser's WebSocket; the test plays the server's part. */
class FakeSocket {
  onopen: SocketLike['onopen'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;
  closed = false;
  constructor(readonly ticket: string) {}
  close() {
    this.closed = true;
  }
  open() {
    this.onopen?.call(this as unknown as WebSocket, new Event('open'));
  }
  send(data: string) {
    this.onmessage?.call(this as unknown as WebSocket, { data } as MessageEvent);
  }
  drop(code = 1006, reason = '') {
    this.onclose?.call(this as unknown as WebSocket, { code, reason } as CloseEvent);
  }
}

let sockets: FakeSocket[];
let statuses: ConnectionStatus[];
let events: MonitorEvent[];
let tickets: number;

function connection(ticket: () => Promise<string> = async () => `wst_${++tickets}`) {
  return new MonitorConnection({
    ticket,
    open: (value) => {
      const socket = new FakeSocket(value);
      sockets.push(socket);
      return socket as unknown as SocketLike;
    },
    onEvent: (event) => events.push(event),
    onStatus: (status) => statuses.push(status),
    delayMs: (attempt) => attempt * 1000,
  });
}

beforeEach(() => {
  vi.useFakeTimers();
  sockets = [];
  statuses = [];
  events = [];
  tickets = 0;
});
afterEach(() => vi.useRealTimers());

describe('the live feed connection', () => {
  it('opens with a ticket and passes well-formed events on', async () => {
    const live = connection();
    live.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(sockets.map((socket) => socket.ticket)).toEqual(['wst_1']);
    sockets[0].open();
    sockets[0].send(JSON.stringify({ eventType: 'PUBLISHED', queueName: 'q', detail: 'd', timestamp: 't' }));
    sockets[0].send('garbage');
    expect(events).toHaveLength(1);
    expect(statuses).toEqual(['connecting', 'open']);
  });

  it('reconnects after a drop, with backoff and a fresh ticket every time', async () => {
    const live = connection();
    live.start();
    await vi.advanceTimersByTimeAsync(0);
    sockets[0].open();
    sockets[0].drop();
    expect(statuses.at(-1)).toBe('reconnecting');
    await vi.advanceTimersByTimeAsync(999);
    expect(sockets).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sockets.map((socket) => socket.ticket)).toEqual(['wst_1', 'wst_2']);

    sockets[1].drop(); // failed before opening: the next wait is longer
    await vi.advanceTimersByTimeAsync(1999);
    expect(sockets).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(sockets[2].ticket).toBe('wst_3');
    sockets[2].open();
    expect(statuses.at(-1)).toBe('open');
  });

  it('keeps trying when no ticket can be had (broker down), and stops for good on stop()', async () => {
    let fail = true;
    const live = connection(async () => {
      if (fail) throw new Error('Cannot reach the broker');
      return `wst_${++tickets}`;
    });
    live.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(sockets).toHaveLength(0);
    expect(statuses).toEqual(['connecting', 'reconnecting']);
    fail = false;
    await vi.advanceTimersByTimeAsync(1000);
    expect(sockets).toHaveLength(1);

    live.stop();
    expect(sockets[0].closed).toBe(true);
    expect(statuses.at(-1)).toBe('stopped');
    sockets[0].drop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sockets).toHaveLength(1);
  });

  it('builds the address on the page’s own host, wss under https', () => {
    expect(monitorUrl('wst_a+b', { protocol: 'http:', host: 'localhost:8080' })).toBe('ws://localhost:8080/ws/monitor?ticket=wst_a%2Bb');
    expect(monitorUrl('wst_x', { protocol: 'https:', host: 'mq.example.com' })).toBe('wss://mq.example.com/ws/monitor?ticket=wst_x');
  });
});
