import WebSocket from 'ws';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { realtimeHub } from '../../src/realtime/plugin.js';
import type { RealtimeHub } from '../../src/realtime/hub.js';
import { eventually } from '../helpers/eventually.js';

export interface TestSocket {
  ws: WebSocket;
  /** Every text frame received so far, parsed. */
  frames: any[];
  /** Resolves with the close code and reason once the socket is closed, from either side. */
  closed: Promise<{ code: number; reason: string }>;
}

export interface SocketOptions {
  key?: string;
  origin?: string;
  autoPong?: boolean;
  /** Subprotocols to offer (the stream's is `miniqueue.v1`). */
  protocols?: string[];
}

const wsUrl = (mq: TestBroker, path: string) => mq.url.replace(/^http/, 'ws') + path;

/** Opens a socket and resolves once the server has accepted it; rejects with the refusal otherwise. */
export function openSocket(mq: TestBroker, path: string, options: SocketOptions = {}): Promise<TestSocket> {
  const headers: Record<string, string> = {};
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  const ws = new WebSocket(wsUrl(mq, path), options.protocols ?? [], { headers, origin: options.origin, autoPong: options.autoPong ?? true });
  const frames: any[] = [];
  ws.on('message', (data) => frames.push(JSON.parse(String(data))));
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ ws, frames, closed }));
    ws.once('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk));
      response.on('end', () => reject(new HandshakeRefused(response.statusCode ?? 0, body, response.headers)));
    });
    ws.once('error', reject);
  });
}

export class HandshakeRefused extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    readonly headers: Record<string, unknown>,
  ) {
    super(`handshake refused with ${status}: ${body}`);
  }
}

/** The refusal of a handshake that must be refused (fails the test if it is accepted). */
export async function refusalOf(mq: TestBroker, path: string, options: SocketOptions = {}): Promise<HandshakeRefused> {
  try {
    const socket = await openSocket(mq, path, options);
    socket.ws.close();
  } catch (error) {
    if (error instanceof HandshakeRefused) return error;
    throw error;
  }
  throw new Error(`handshake to ${path} was accepted`);
}

export { eventually };

export const hubOf = (mq: TestBroker): RealtimeHub => realtimeHub(mq.broker.server);

/** Waits until one instance leads and its dispatcher has `count` sockets in the queue's rotation. */
export async function rotationReady(instances: TestBroker[], queue: string, count: number): Promise<void> {
  await eventually(
    () => instances.some((mq) => hubOf(mq).dispatcher.active && hubOf(mq).dispatcher.rotationOf(queue).length === count),
    `${count} sockets in the rotation of ${queue}`,
  );
}

/** Two listening instances of one broker on one database. */
export async function startPair(env: Record<string, string> = {}): Promise<[TestBroker, TestBroker]> {
  const a = await startTestBroker({ listen: true, env });
  const b = await startTestBroker({ listen: true, databaseUrl: a.databaseUrl, adminKey: a.adminKey, env });
  return [a, b];
}

/** Lets in-flight frames arrive, so that a duplicate would be seen before the counts are checked. */
export const settle = (ms = 300) => new Promise((resolve) => setTimeout(resolve, ms));

/** A WebSocket ticket asked for with this credential on this instance. */
export async function ticket(mq: TestBroker, credential: string): Promise<string> {
  return (await mq.post('/api/v1/auth/ws-ticket', undefined, credential)).body.ticket;
}
