import type { WebSocket } from 'ws';

/**
 * Pings every socket of this instance on a schedule; a socket that has not answered the previous
 * ping by the next round is terminated. Peers that vanished without a close (a laptop lid, a
 * dropped NAT mapping) therefore stop holding memory, and a consumer's place in the rotation,
 * after at most two rounds.
 */
export class Heartbeat {
  private readonly alive = new Map<WebSocket, boolean>();
  private timer?: NodeJS.Timeout;

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

  schedule(intervalMs: number): void {
    this.timer ??= setInterval(() => this.runOnce(), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.alive.clear();
  }
}
