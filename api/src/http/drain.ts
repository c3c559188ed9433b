import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import net, { type Socket } from 'node:net';

/**
 * A connection with no request for this long is closed by the drain. A client that sends on it at
 * that very moment can still see its request reset, as with any keep-alive timeout; one that sends
 * within this long is answered.
 */
const IDLE_CLOSE_MS = 1_000;
const CHECK_EVERY_MS = 50;

interface Connection {
  /** Responses not yet finished on this connection. */
  open: Set<ServerResponse>;
  idleSince: number;
}

/**
 * The draining phase of a shutdown. The listening socket closes at once: new connections are
 * refused before any request is sent, and the client can go elsewhere. A request that arrives on a
 * kept-alive connection, or was in flight, is answered as usual with `Connection: close`, after which
 * Node closes that connection. A connection left idle is closed once it has been idle for a second.
 * Closing an idle keep-alive connection at once (hapi's and Node's own stop) resets the requests
 * clients were sending on it at that moment, unanswered.
 */
export class ConnectionDrain {
  private readonly connections = new Map<Socket, Connection>();
  private draining = false;

  constructor(private readonly listener: HttpServer) {
    listener.on('connection', this.onConnection);
    listener.on('request', this.onRequest);
    // A WebSocket is no HTTP connection any more; the realtime hub closes it on stop.
    listener.on('upgrade', (_request: IncomingMessage, socket: Socket) => void this.connections.delete(socket));
  }

  /** Open HTTP connections (not WebSockets) on this listener. */
  get size(): number {
    return this.connections.size;
  }

  /** Stops taking connections and marks every response from now on as the connection's last. */
  start(): void {
    if (this.draining) return;
    this.draining = true;
    // net.Server's close, not http.Server's: that one also destroys idle keep-alive connections.
    if (this.listener.listening) net.Server.prototype.close.call(this.listener);
    for (const connection of this.connections.values()) {
      for (const response of connection.open) if (!response.headersSent) response.shouldKeepAlive = false;
    }
  }

  /** Resolves once every HTTP connection is closed, or at `deadline`. */
  async finished(deadline: number): Promise<void> {
    this.start();
    while (this.connections.size > 0 && Date.now() < deadline) {
      const now = Date.now();
      for (const [socket, connection] of this.connections) {
        if (connection.open.size === 0 && now - connection.idleSince >= IDLE_CLOSE_MS) socket.end();
      }
      await new Promise((resolve) => setTimeout(resolve, CHECK_EVERY_MS));
    }
  }

  private readonly onConnection = (socket: Socket) => {
    this.connections.set(socket, { open: new Set(), idleSince: Date.now() });
    socket.once('close', () => this.connections.delete(socket));
  };

  private readonly onRequest = (request: IncomingMessage, response: ServerResponse) => {
    const connection = this.connections.get(request.socket as Socket);
    if (this.draining) response.shouldKeepAlive = false;
    if (!connection) return;
    connection.open.add(response);
    response.once('close', () => {
      connection.open.delete(response);
      connection.idleSince = Date.now();
    });
  };
}
