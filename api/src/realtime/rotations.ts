interface Member {
  queue: string;
  instance: string;
}

interface Rotation {
  sockets: string[];
  next: number;
}

/**
 * Round-robin over the consumer sockets of each queue, in the order they joined, whichever
 * instance holds them. A socket that leaves does not disturb the turn: whoever was next stays next.
 */
export class Rotations {
  private readonly members = new Map<string, Member>();
  private readonly byQueue = new Map<string, Rotation>();

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
    const rotation = this.byQueue.get(member.queue) as Rotation;
    const index = rotation.sockets.indexOf(socket);
    rotation.sockets.splice(index, 1);
    if (index < rotation.next) rotation.next -= 1;
    if (rotation.next >= rotation.sockets.length) rotation.next = 0;
    if (rotation.sockets.length === 0) this.byQueue.delete(member.queue);
  }

  /** The next socket of the queue for each of `count` messages, with the instance holding it. */
  take(queue: string, count: number): { socket: string; instance: string }[] {
    const rotation = this.byQueue.get(queue);
    if (!rotation) return [];
    const turns: { socket: string; instance: string }[] = [];
    for (let i = 0; i < count; i += 1) {
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
  }
}
