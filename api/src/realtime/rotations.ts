interface Member {
  queue: string;
  instance: string;
}

interface Rotation {
  sockets: string[];
  next: number;
}

/** Which sockets a turn may go to: any (the readers first), or only the readers. */
export type TakeFrom = 'readers first' | 'readers only';

/**
 * Round-robin over the consumer sockets of each queue, in the order they joined, whichever
 * instance holds them. A socket that leaves does not disturb the turn: whoever was next stays next.
 * A socket whose instance said it stopped reading is passed over while another of its queue reads.
 */
export class Rotations {
  private readonly members = new Map<string, Member>();
  private readonly byQueue = new Map<string, Rotation>();
  private readonly stalled = new Set<string>();

  add(socket: string, queue: string, instance: string): void {
    if (this.members.has(socket)) return;
    this.members.set(socket, { queue, instance });
    let rotation = this.byQueue.get(queue);
    if (!rotation) this.byQueue.set(queue, (rotation = { sockets: [], next: 0 }));
    rotation.sockets.push(socket);
  }

  remove(socket: string): void {
    const member = this.members.get(socket);
    if (!member) return;
    this.members.delete(socket);
    this.stalled.delete(socket);
    const rotation = this.byQueue.get(member.queue) as Rotation;
    const index = rotation.sockets.indexOf(socket);
    rotation.sockets.splice(index, 1);
    if (index < rotation.next) rotation.next -= 1;
    if (rotation.next >= rotation.sockets.length) rotation.next = 0;
    if (rotation.sockets.length === 0) this.byQueue.delete(member.queue);
  }

  /** Its instance said it stopped reading (false) or reads again (true); a socket not here is ignored. */
  setReading(socket: string, reading: boolean): void {
    if (!this.members.has(socket)) return;
    if (reading) this.stalled.delete(socket);
    else this.stalled.add(socket);
  }

  /**
   * The next socket of the queue for each of `count` messages, with the instance holding it,
   * passing over the stalled ones. When none of the queue's sockets reads, 'readers first' takes
   * the plain turn (its instance may know better by now), 'readers only' takes none at all.
   */
  take(queue: string, count: number, from: TakeFrom = 'readers first'): { socket: string; instance: string }[] {
    const rotation = this.byQueue.get(queue);
    if (!rotation) return [];
    const anyReads = rotation.sockets.some((socket) => !this.stalled.has(socket));
    if (!anyReads && from === 'readers only') return [];
    const turns: { socket: string; instance: string }[] = [];
    for (let i = 0; i < count; i += 1) {
      while (anyReads && this.stalled.has(rotation.sockets[rotation.next])) rotation.next = (rotation.next + 1) % rotation.sockets.length;
      const socket = rotation.sockets[rotation.next];
      rotation.next = (rotation.next + 1) % rotation.sockets.length;
      turns.push({ socket, instance: (this.members.get(socket) as Member).instance });
    }
    return turns;
  }

  sockets(queue: string): string[] {
    return [...(this.byQueue.get(queue)?.sockets ?? [])];
  }

  clear(): void {
    this.members.clear();
    this.byQueue.clear();
    this.stalled.clear();
  }
}
