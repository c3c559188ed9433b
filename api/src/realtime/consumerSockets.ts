import { EventEmitter } from 'node:events';
import { WebSocket } from 'ws';
import type { WsReadingEvent } from './channels.js';
import type { Delivery } from './dispatcher.js';
import { ReadingProbe } from './readingProbe.js';

/** A consumer whose notifications pile up here gets no more until it catches up. */
const MAX_BUFFERED_BYTES = 256 * 1024;

export interface ConsumerSocketsEvents {
  /** For the dispatcher, wherever it runs: a socket here stopped reading (with what no socket here could take), or reads again. */
  reading: [WsReadingEvent];
}

/**
 * The /ws/consume sockets held by this instance. The dispatcher chooses the socket; this only
 * sends. When the chosen socket closed in the meantime, or is not reading (its notifications pile
 * up here, or it left a ping unanswered: readingProbe.ts), another socket of the same queue here
 * takes the notification, so it is not lost to a race with a disconnect or to a stalled consumer.
 * The dispatcher is told too (`reading`), with what no socket here could take: the queue's other
 * instances may hold a socket that reads, and the dispatcher passes a stalled socket over until
 * it is told that the socket answered again.
 */
export class ConsumerSockets extends EventEmitter<ConsumerSocketsEvents> {
  private readonly probe = new ReadingProbe();
  private readonly byId = new Map<string, { queue: string; socket: WebSocket }>();
  private readonly byQueue = new Map<string, string[]>();
  private readonly fallbackTurn = new Map<string, number>();
  /** Sockets the dispatcher was told have stopped reading, until they answer. */
  private readonly stalled = new Set<string>();

  add(id: string, queue: string, socket: WebSocket): void {
    this.byId.set(id, { queue, socket });
    this.probe.watch(socket);
    socket.on('pong', () => {
      if (this.stalled.delete(id)) this.emit('reading', { id, queue, reading: true, ids: [] });
    });
    const ids = this.byQueue.get(queue) ?? [];
    ids.push(id);
    this.byQueue.set(queue, ids);
  }

  remove(id: string): void {
    const entry = this.byId.get(id);
    if (!entry) return;
    this.byId.delete(id);
    this.stalled.delete(id);
    const ids = (this.byQueue.get(entry.queue) ?? []).filter((other) => other !== id);
    if (ids.length > 0) this.byQueue.set(entry.queue, ids);
    else {
      this.byQueue.delete(entry.queue);
      this.fallbackTurn.delete(entry.queue);
    }
  }

  count(queue?: string): number {
    return queue === undefined ? this.byId.size : (this.byQueue.get(queue)?.length ?? 0);
  }

  /**
   * Sends each message id to its chosen socket (or a stand-in); returns how many went out. Each
   * chosen socket that could not take its ids is reported, with those no stand-in took.
   */
  deliver(queue: string, deliveries: Delivery[]): number {
    let sent = 0;
    const handedBack = new Map<string, string[]>();
    for (const [socketId, messageId] of deliveries) {
      const chosen = this.ready(this.byId.get(socketId)?.socket);
      if (!chosen && !handedBack.has(socketId)) handedBack.set(socketId, []);
      const target = chosen ?? this.standIn(queue);
      if (!target) {
        handedBack.get(socketId)?.push(messageId);
        continue;
      }
      target.send(JSON.stringify({ queue, message_id: messageId }));
      this.probe.sent(target);
      sent += 1;
    }
    for (const [socketId, ids] of handedBack) {
      if (this.byId.has(socketId)) this.stalled.add(socketId);
      this.emit('reading', { id: socketId, queue, reading: false, ids });
    }
    return sent;
  }

  /** Closes every socket of a queue (it was deleted). */
  closeQueue(queue: string, code: number, reason: string): void {
    for (const id of this.byQueue.get(queue) ?? []) this.byId.get(id)?.socket.close(code, reason);
  }

  private ready(socket: WebSocket | undefined): WebSocket | undefined {
    const open = socket?.readyState === WebSocket.OPEN;
    return open && socket.bufferedAmount < MAX_BUFFERED_BYTES && this.probe.reading(socket) ? socket : undefined;
  }

  private standIn(queue: string): WebSocket | undefined {
    const ids = this.byQueue.get(queue) ?? [];
    const start = this.fallbackTurn.get(queue) ?? 0;
    for (let step = 0; step < ids.length; step += 1) {
      const index = (start + step) % ids.length;
      const socket = this.ready(this.byId.get(ids[index])?.socket);
      if (socket) {
        this.fallbackTurn.set(queue, index + 1);
        return socket;
      }
    }
    return undefined;
  }
}
