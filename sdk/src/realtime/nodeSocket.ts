import type { MiniQueueError } from '../errors.js';
import { errorFromResponse } from '../http/responseError.js';
import type { SocketLike } from './socket.js';

/** The part of the `ws` package's WebSocket this uses (the SDK has no Node typings). */
export type NodeSocketClass = new (url: string, protocolsOrOptions: unknown, options?: { headers: Record<string, string> }) => NodeSocket;

export interface NodeSocket extends SocketLike {
  on(event: 'unexpected-response', listener: (request: unknown, response: HandshakeResponse) => void): void;
  terminate(): void;
  send(data: string): void;
  readonly protocol: string;
  /** The TCP socket under it (ws's own field), to let an idle stream not keep Node running. */
  readonly _socket?: { ref(): void; unref(): void } | null;
}

interface HandshakeResponse {
  statusCode?: number;
  headers: Record<string, string | string[] | undefined>;
  setEncoding(encoding: string): void;
  on(event: 'data', listener: (chunk: string) => void): void;
  on(event: 'end', listener: () => void): void;
}

/**
 * A `ws` socket that, unlike a browser's, tells why a handshake was refused: the broker's status
 * and message become the SDK's typed error (UnauthorizedError, ForbiddenError, RateLimitedError…),
 * handed to `onerror` as the event's `error`; `onclose` follows as for any failure.
 */
export class NodeSocketAdapter implements SocketLike {
  onopen: SocketLike['onopen'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onerror: SocketLike['onerror'] = null;
  onclose: SocketLike['onclose'] = null;
  private refused: MiniQueueError | undefined;

  constructor(protected readonly socket: NodeSocket) {
    socket.onopen = (event) => this.onopen?.(event);
    socket.onmessage = (event) => this.onmessage?.(event);
    // Always listened to: `ws` throws an error event nobody listens to.
    socket.onerror = (event) => this.onerror?.(this.refused ? { error: this.refused } : event);
    socket.onclose = (event) => this.onclose?.(event);
    socket.on('unexpected-response', (_request, response) => this.refuse(response));
  }

  close(code?: number, reason?: string): void {
    this.socket.close(code, reason);
  }

  private refuse(response: HandshakeResponse): void {
    let body = '';
    response.setEncoding('utf8');
    response.on('data', (chunk) => (body += chunk));
    response.on('end', () => {
      void refusal(response, body).then((error) => {
        this.refused = error;
        this.socket.terminate(); // emits error, then close
      });
    });
  }
}

function refusal(response: HandshakeResponse, body: string): Promise<MiniQueueError> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers)) if (typeof value === 'string') headers.set(name, value);
  return errorFromResponse(new Response(body, { status: response.statusCode ?? 500, headers }), 1);
}
