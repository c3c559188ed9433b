import { ConnectionError } from '../errors.js';
import { NodeSocketAdapter, type NodeSocketClass } from './nodeSocket.js';

/** The part of the WebSocket API shared by browsers and the `ws` package. */
export interface SocketLike {
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  close(code?: number, reason?: string): void;
}

/** How a broker WebSocket proves who opens it. */
export interface SocketCredentials {
  /** The credential for the handshake's Authorization header (programs). */
  token(): Promise<string>;
  /** A single-use ticket for the query string (browsers, which cannot set handshake headers). */
  ticket(): Promise<string>;
}

/** Where a broker's WebSockets are, and how to prove who opens one. */
export interface SocketEndpoint extends SocketCredentials {
  baseUrl: string;
}

/** `/ws/consume` or `/ws/monitor` under the broker's base URL, ws:// or wss:// to match it. */
export function socketUrl(baseUrl: string, path: string, query: Record<string, string> = {}): URL {
  const url = new URL(`${baseUrl.replace(/\/+$/, '')}${path}`);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return url;
}

/**
 * In Node, `ws` with the credential in the handshake; elsewhere the global WebSocket and a fresh
 * ticket (tickets are single-use, so every attempt needs its own).
 */
export async function openSocket(url: URL, credentials: SocketCredentials): Promise<SocketLike> {
  const NodeSocket = await nodeWebSocket();
  if (NodeSocket) return openNodeSocket(NodeSocket, url.toString(), `Bearer ${await credentials.token()}`);
  const BrowserSocket = (globalThis as { WebSocket?: new (url: string) => SocketLike }).WebSocket;
  if (!BrowserSocket) throw new Error('WebSockets need the `ws` package here: install it');
  const ticketed = new URL(url);
  ticketed.searchParams.set('ticket', await credentials.ticket());
  return new BrowserSocket(ticketed.toString());
}

/** What an `error` event carries, as an Error: the typed refusal or connection failure when there is one. */
export function socketError(event: unknown): Error {
  const inner = (event as { error?: unknown; message?: string } | undefined) ?? {};
  if (inner.error instanceof Error) return inner.error;
  return new Error(`WebSocket error${inner.message ? `: ${inner.message}` : ''}`);
}

// A variable, so browser bundlers do not try to include the Node-only package.
const NODE_WEBSOCKET_MODULE = 'ws';

/** The `ws` package's WebSocket in Node (when installed); undefined elsewhere. */
export async function nodeWebSocket(): Promise<NodeSocketClass | undefined> {
  const isNode = typeof (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node === 'string';
  if (!isNode) return undefined;
  try {
    const module = await import(/* @vite-ignore */ NODE_WEBSOCKET_MODULE);
    return module.default ?? module.WebSocket;
  } catch {
    return undefined; // no `ws`: fall back to a global WebSocket (Node 22+) with a ticket
  }
}

function openNodeSocket(NodeSocket: NodeSocketClass, url: string, authorization: string): SocketLike {
  return new NodeSocketAdapter(new NodeSocket(url, { headers: { authorization } }));
}

/** Why an attempt failed, as the SDK's errors: a typed refusal as it is, anything else a ConnectionError saying why. */
export function connectionFailure(error: Error, what: string): Error {
  if ('status' in error) return error;
  return new ConnectionError({ status: 0, message: `Cannot open ${what} (${causeOf(error)})`, cause: error });
}

/** A socket URL as errors show it: scheme, host and path, never credentials or the query (tickets, resume tokens). */
export const shownAddress = (url: URL): string => `${url.protocol}//${url.host}${url.pathname}`;

/**
 * Why a connection failed, in a word where there is one: Node's code (ECONNREFUSED, ETIMEDOUT,
 * ENOTFOUND, CERT_HAS_EXPIRED, ERR_TLS_CERT_ALTNAME_INVALID...), else the error's first line.
 */
export function causeOf(error: Error): string {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && code) return code;
  const inner = (error as { cause?: unknown }).cause;
  if (inner instanceof Error && inner !== error) return causeOf(inner);
  return error.message.split('\n')[0].slice(0, 200) || error.name;
}
