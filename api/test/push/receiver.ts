import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type Answer = (request: Received, response: http.ServerResponse) => void;

/** A real HTTP server on 127.0.0.1 that records every request and answers as told. */
export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  answer: Answer;
  close(): Promise<void>;
}

export async function startReceiver(answer: Answer = (_request, response) => response.end('ok')): Promise<Receiver> {
  const sockets = new Set<import('node:net').Socket>();
  const receiver = { received: [] as Received[], answer } as Receiver;
  const server = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const got = { path: request.url ?? '', headers: request.headers, body };
      receiver.received.push(got);
      receiver.answer(got, response);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}`;
  receiver.close = () =>
    new Promise((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return receiver;
}
