import type { SocketLike } from '../realtime/socket.js';
import { STREAM_SUBPROTOCOL } from './frames.js';
import type { StreamSocket } from './socket.js';

interface BrowserWebSocket extends SocketLike {
  send(data: string): void;
  readonly protocol: string;
}
type BrowserWebSocketClass = new (url: string, protocols: string[]) => BrowserWebSocket;

/** The global WebSocket (browsers, Deno, Node 22+), if there is one. */
export function browserWebSocket(): BrowserWebSocketClass | undefined {
  return (globalThis as { WebSocket?: BrowserWebSocketClass }).WebSocket;
}

/**
 * A stream over the global WebSocket, authenticated by a single-use ticket in the query string.
 * A browser does not say why a handshake failed; the ticket was just granted over HTTP, so the
 * broker is reachable, and a socket that closes before it opens was refused.
 */
export function openBrowserStreamSocket(BrowserSocket: BrowserWebSocketClass, url: URL, ticket: string): StreamSocket {
  const ticketed = new URL(url);
  ticketed.searchParams.set('ticket', ticket);
  const socket = new BrowserSocket(ticketed.toString(), [STREAM_SUBPROTOCOL]);
  return Object.assign(socket, { refusedWhenClosedEarly: true, hold: () => undefined });
}
