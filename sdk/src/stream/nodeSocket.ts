import { NodeSocketAdapter, type NodeSocketClass } from '../realtime/nodeSocket.js';
import { STREAM_SUBPROTOCOL } from './frames.js';
import type { StreamSocket } from './socket.js';

/**
 * A stream over the `ws` package: the credential goes in the handshake's Authorization header,
 * and a refused handshake becomes the SDK's typed error (see NodeSocketAdapter).
 */
class NodeStreamSocket extends NodeSocketAdapter implements StreamSocket {
  readonly refusedWhenClosedEarly = false;

  get protocol(): string {
    return this.socket.protocol;
  }

  send(data: string): void {
    this.socket.send(data);
  }

  hold(held: boolean): void {
    // Only the TCP socket can be unref'd; before the handshake completes there is none yet.
    const tcp = this.socket._socket;
    if (held) tcp?.ref();
    else tcp?.unref();
  }
}

export function openNodeStreamSocket(NodeSocket: NodeSocketClass, url: URL, authorization: string): StreamSocket {
  const headers: Record<string, string> = authorization ? { authorization } : {};
  return new NodeStreamSocket(new NodeSocket(url.toString(), [STREAM_SUBPROTOCOL], { headers }));
}
