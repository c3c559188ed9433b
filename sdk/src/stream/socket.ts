import { nodeWebSocket, socketUrl, type SocketEndpoint, type SocketLike } from '../realtime/socket.js';
import { browserWebSocket, openBrowserStreamSocket } from './browserSocket.js';
import { STREAM_PATH } from './frames.js';
import { openNodeStreamSocket } from './nodeSocket.js';

/** A WebSocket as a stream needs it: Node's `ws` and a browser's own behind one face. */
export interface StreamSocket extends SocketLike {
  send(data: string): void;
  /** The subprotocol the broker chose; empty when it chose none. */
  readonly protocol: string;
  /** false lets Node exit while the stream is idle (a no-op in browsers). */
  hold(held: boolean): void;
  /** True where a handshake refusal cannot be told apart from a close before opening (browsers). */
  readonly refusedWhenClosedEarly: boolean;
}

/** Opens one stream socket; a custom one may be given for tests. */
export type OpenStreamSocket = (url: URL) => Promise<StreamSocket>;

/** Raised when this runtime has no WebSocket at all: the client then uses HTTP. */
export class NoWebSocketError extends Error {
  constructor() {
    super('no WebSocket here (install the `ws` package in Node 20)');
    this.name = 'NoWebSocketError';
  }
}

export function streamUrl(endpoint: SocketEndpoint, query: Record<string, string | undefined>): URL {
  const present = Object.fromEntries(Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined));
  return socketUrl(endpoint.baseUrl, STREAM_PATH, present);
}

/** In Node, `ws` with the credential in the handshake; elsewhere the global WebSocket and a ticket. */
export function socketOpener(endpoint: SocketEndpoint): OpenStreamSocket {
  return async (url) => {
    const NodeSocket = await nodeWebSocket();
    if (NodeSocket) {
      const token = await endpoint.token();
      return openNodeStreamSocket(NodeSocket, url, token ? `Bearer ${token}` : '');
    }
    const BrowserSocket = browserWebSocket();
    if (!BrowserSocket) throw new NoWebSocketError();
    return openBrowserStreamSocket(BrowserSocket, url, await endpoint.ticket());
  };
}
