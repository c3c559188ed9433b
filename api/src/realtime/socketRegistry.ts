import type { WebSocket } from 'ws';
import type { AdmittedSocket } from './admission.js';
import type { ConsumerSockets } from './consumerSockets.js';
import type { Heartbeat } from './heartbeat.js';
import type { MonitorFeed } from './monitorFeed.js';
import type { Streams } from '../stream/streams.js';

/**
 * Every socket this instance holds, with what it was admitted as. A socket enters the heartbeat
 * and either the consumer sockets or the dashboards' feed, and leaves all of them at once (on
 * close, or when it is ended here), so nothing is sent to or chosen for a socket that is closing.
 */
export class SocketRegistry {
  private readonly held = new Map<WebSocket, AdmittedSocket>();

  constructor(
    private readonly deps: {
      heartbeat: Heartbeat;
      consumers: ConsumerSockets;
      monitors: MonitorFeed;
      streams: Streams;
      /** Gives back what the admission took (quota, rotation place, monitor presence). */
      release(admitted: AdmittedSocket): void;
    },
  ) {}

  add(socket: WebSocket, admitted: AdmittedSocket): void {
    this.held.set(socket, admitted);
    socket.on('close', (code: number) => this.detach(socket, code));
    // Errors are followed by 'close'; without a listener they would be thrown.
    socket.on('error', () => undefined);
    this.deps.heartbeat.track(socket);
    if (admitted.stream) this.deps.streams.open(socket, admitted.stream);
    else if (admitted.socketId) this.deps.consumers.add(admitted.socketId, admitted.queue as string, socket);
    else this.deps.monitors.add(socket);
  }

  /** Closes a socket with this code, out of every structure first. */
  end(socket: WebSocket, code: number, reason: string): void {
    this.detach(socket, code);
    socket.close(code, reason);
  }

  /** Closes every socket admitted as `which` says. */
  endWhere(which: (admitted: AdmittedSocket) => boolean, code: number, reason: string): void {
    for (const [socket, admitted] of [...this.held]) if (which(admitted)) this.end(socket, code, reason);
  }

  endAll(code: number, reason: string): void {
    this.endWhere(() => true, code, reason);
  }

  /** `code`: why it closed, or is being closed (a stream is kept for a resume only after some). */
  private detach(socket: WebSocket, code: number): void {
    const admitted = this.held.get(socket);
    if (!admitted) return;
    this.held.delete(socket);
    this.deps.heartbeat.untrack(socket);
    this.deps.monitors.remove(socket);
    if (admitted.stream) this.deps.streams.closed(socket, code);
    if (admitted.socketId) this.deps.consumers.remove(admitted.socketId);
    this.deps.release(admitted);
  }
}
