import type { WebSocket } from 'ws';
import { Lifecycle } from '../lifecycle/lifecycle.js';
import type { Service } from '../lifecycle/service.js';

/**
 * Pings every socket of this instance on a schedule; a socket that has not answered the previous
 * ping by the next round is terminated. Peers that vanished without a close (a laptop lid, a
 * dropped NAT mapping) therefore stop holding memory, and a consumer's place in the rotation,
 * after at most two rounds.
 */
export class Heartbeat implements Service {
  readonly name = 'websocket-heartbeat';
  private readonly life = new Lifecycle(this.name);
  private readonly alive = new Map<WebSocket, boolean>();

  constructor(private readonly intervalMs: number) {}

  track(socket: WebSocket): void {
    this.alive.set(socket, true);
    socket.on('pong', () => {
      if (this.alive.has(socket)) this.alive.set(socket, true);
    });
  }

  untrack(socket: WebSocket): void {
    this.alive.delete(socket);
  }

  /** Sockets pinged in the last round that have not answered yet. */
  unanswered(): number {
    let count = 0;
    for (const answered of this.alive.values()) if (!answered) count += 1;
    return count;
  }

  /** One round: terminate the silent, ping the rest. Returns how many were terminated. */
  runOnce(): number {
    let terminated = 0;
    for (const [socket, answered] of this.alive) {
      if (!answered) {
        this.alive.delete(socket);
        socket.terminate();
        terminated += 1;
        continue;
      }
      this.alive.set(socket, false);
      socket.ping();
    }
    return terminated;
  }

  start(): Promise<void> {
    return this.life.start(() => this.life.timers.every(this.intervalMs, () => this.runOnce()));
  }

  stop(): Promise<void> {
    return this.life.stop(() => this.alive.clear());
  }

  health() {
    return this.life.health();
  }
}
