import { MAX_FRAMES_PER_MESSAGE, type ClientFrame } from './frames.js';

/** Runs `flush` once the current turn of the event loop is over (its microtasks included). */
export type Schedule = (flush: () => void) => void;

const globals = globalThis as { setImmediate?: (callback: () => void) => unknown };
// setImmediate runs after every promise continuation of this turn, so frames issued across
// awaits that settle in the same turn still share a message; browsers get the next task.
export const endOfTurn: Schedule = (flush) => void (globals.setImmediate ? globals.setImmediate(flush) : setTimeout(flush, 0));

/** Until the broker's welcome says otherwise. */
export const DEFAULT_MAX_MESSAGE_BYTES = 1_048_576;

/**
 * Collects the frames issued in one turn and writes them as one WebSocket message (a JSON array),
 * split so that no message has more than 1,000 frames or more than `maxBytes` (a frame larger
 * than that alone goes out alone, for the broker to refuse as it would over HTTP).
 */
export class FrameBatcher {
  private queued: string[] = [];
  private deferred: Array<() => void> = [];
  private scheduled = false;

  constructor(
    private readonly write: (message: string) => void,
    private readonly schedule: Schedule = endOfTurn,
    public maxBytes = DEFAULT_MAX_MESSAGE_BYTES,
  ) {}

  get pending(): number {
    return this.queued.length;
  }

  push(frame: ClientFrame): void {
    this.queued.push(JSON.stringify(frame));
    this.wake();
  }

  /** Runs `prepare` at the start of this turn's flush, so that it can still push frames into it. */
  defer(prepare: () => void): void {
    this.deferred.push(prepare);
    this.wake();
  }

  flush(): void {
    this.scheduled = false;
    const deferred = this.deferred;
    this.deferred = [];
    deferred.forEach((prepare) => prepare());
    const frames = this.queued;
    this.queued = [];
    for (const chunk of chunksOf(frames, this.maxBytes)) this.write(chunk.length === 1 ? chunk[0] : `[${chunk.join(',')}]`);
  }

  /** Forgets what was not written yet (the socket closed); deferred work still runs. */
  discard(): void {
    this.queued = [];
  }

  private wake(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    this.schedule(() => this.flush());
  }
}

function* chunksOf(frames: string[], maxBytes: number): Generator<string[]> {
  let chunk: string[] = [];
  let bytes = 2; // the array's brackets
  for (const frame of frames) {
    const size = utf8Length(frame) + 1;
    if (chunk.length > 0 && (chunk.length === MAX_FRAMES_PER_MESSAGE || bytes + size > maxBytes)) {
      yield chunk;
      chunk = [];
      bytes = 2;
    }
    chunk.push(frame);
    bytes += size;
  }
  if (chunk.length > 0) yield chunk;
}

/** UTF-8 bytes of a string, without encoding it. */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 2; // a surrogate pair: 4 bytes for 2 units
      i++;
    } else bytes += 2;
  }
  return bytes;
}
