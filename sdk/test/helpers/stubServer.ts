import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface StubReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Wait this long before answering. */
  delayMs?: number;
}

/** 'drop' cuts the connection without an answer, as a failing network would. */
export type StubAnswer = StubReply | 'drop';

export interface StubServer {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/**
 * An HTTP server on 127.0.0.1 that records every request and answers the nth one (0-based) with
 * `answer(request, n)`. Stands in for the broker where the test is about the client's behaviour.
 */
export async function startStubServer(answer: (request: RecordedRequest, n: number) => StubAnswer): Promise<StubServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const request = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
    requests.push(request);
    const reply = answer(request, requests.length - 1);
    if (reply === 'drop') return void req.socket.destroy();
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    if (res.destroyed) return;
    const body = reply.body === undefined ? '' : JSON.stringify(reply.body);
    res.writeHead(reply.status, { ...(body ? { 'content-type': 'application/json' } : {}), ...reply.headers });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The contract's error body for a status. */
export const errorBody = (status: number, message = `failed with ${status}`, errors: unknown = null) => ({
  status,
  message,
  errors,
  response_body: null,
});

export const publishResult = { message_ids: ['3f2a9c1e-5b7d-4e8a-9c21-7d4e5f6a8b90'], queues: ['email-queue'], duplicate: false };
