import WebSocket from 'ws';

/**
 * A small client of the stream protocol (`/ws/v1/stream`, subprotocol `miniqueue.v1`, see
 * src/stream/README.md), written for the benchmark on the `ws` package alone: not the SDK, so the
 * figures measure the protocol and the broker, not a client library. It does what the design note
 * asks of a client and no more: frames produced in the same turn of the event loop leave as one
 * WebSocket message (a JSON array, at most 1,000 frames), and both a single frame and an array are
 * accepted from the broker. Any frame the broker refuses fails the workload loudly.
 */
export const STREAM_PATH = '/ws/v1/stream';
export const STREAM_SUBPROTOCOL = 'miniqueue.v1';
const MAX_FRAMES_PER_MESSAGE = 1_000;

export interface Welcome {
  type: 'welcome';
  stream_id: string;
  resume_token: string;
  resumed: boolean;
  limits: { max_message_bytes: number; max_unconfirmed: number; max_subscriptions: number; max_prefetch: number; resume_grace_ms: number };
}

export interface Confirm {
  type: 'confirm';
  seq: number;
  message_ids: string[];
  queues: string[];
  duplicate: boolean;
}

/** The HTTP `Message` as a `deliver` frame carries it (only what the bench reads). */
export interface DeliveredMessage {
  message_id: string;
  headers?: Record<string, string>;
  [field: string]: unknown;
}

export interface PublishFrame {
  topic: string;
  payload: unknown;
  headers?: Record<string, string>;
  ordering_key?: string;
  idempotency_key?: string;
  delay_seconds?: number;
}

type Frame = { type: string; [field: string]: unknown };

interface Waiter<T> {
  resolve: (value: T) => void;
  reject: (error: Error) => void;
}

/** Removes and returns the waiter of `key`, if there is one. */
function take<K, T>(waiters: Map<K, Waiter<T>>, key: K): Waiter<T> | undefined {
  const waiter = waiters.get(key);
  waiters.delete(key);
  return waiter;
}

function describe(frame: Frame): string {
  return JSON.stringify(frame).slice(0, 300);
}

export class StreamClient {
  /** Frames sent and WebSocket messages they went in (both directions), for the report. */
  readonly counts = { framesOut: 0, messagesOut: 0, framesIn: 0, messagesIn: 0, bytesIn: 0 };
  /** The first error the broker sent that no waiter claimed; fails every later call. */
  private failure: Error | null = null;
  private closed = false;
  private nextSeq = 1;
  private outbox: Frame[] = [];
  private flushScheduled = false;
  private readonly confirms = new Map<number, Waiter<Confirm>>();
  private readonly subscriptions = new Map<string, (message: DeliveredMessage) => void>();
  private readonly subscribeWaiters = new Map<string, Waiter<Frame>>();
  private readonly refWaiters = new Map<number, Waiter<Frame>>();
  private nextRef = 1;

  private constructor(
    private readonly socket: WebSocket,
    readonly welcome: Welcome,
  ) {
    socket.on('message', (data: WebSocket.RawData, isBinary: boolean) => this.receive(data, isBinary));
    socket.on('close', (code: number, reason: Buffer) => {
      this.closed = true;
      this.closeCode = code;
      this.failAll(new Error(`stream closed by the broker: ${code} ${reason.toString('utf8')}`));
    });
  }

  /** The close code, once the socket closed (the broker's, or ours). */
  closeCode: number | null = null;

  /** Opens a stream with an API key (Bearer header, as a program would) and waits for `welcome`. */
  static open(baseUrl: string, key: string, query: Record<string, string> = {}): Promise<StreamClient> {
    const url = new URL(STREAM_PATH, baseUrl.replace(/^http/, 'ws'));
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    const socket = new WebSocket(url, STREAM_SUBPROTOCOL, { headers: { authorization: `Bearer ${key}` }, perMessageDeflate: false });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        socket.terminate();
        reject(new Error(`no welcome on ${STREAM_PATH} within 15 s`));
      }, 15_000);
      const fail = (error: Error) => {
        clearTimeout(timer);
        reject(error);
      };
      socket.once('unexpected-response', (_request, response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        response.on('end', () => fail(new Error(`${STREAM_PATH} refused the handshake: ${response.statusCode} ${body.slice(0, 300)}`)));
      });
      socket.once('error', fail);
      socket.once('close', (code: number) => fail(new Error(`${STREAM_PATH} closed before welcome: ${code}`)));
      socket.once('message', (data: WebSocket.RawData) => {
        clearTimeout(timer);
        socket.removeAllListeners('close');
        socket.off('error', fail);
        socket.on('error', () => undefined); // a later error is seen as the close that follows it
        if (socket.protocol !== STREAM_SUBPROTOCOL) return fail(new Error(`the broker chose subprotocol '${socket.protocol}'`));
        let frames: Frame[];
        try {
          const parsed = JSON.parse(data.toString());
          frames = Array.isArray(parsed) ? parsed : [parsed];
        } catch {
          return fail(new Error('the first message of the stream is not JSON'));
        }
        const [first, ...rest] = frames;
        if (first?.type !== 'welcome') return fail(new Error(`the first frame is not welcome: ${describe(first)}`));
        const client = new StreamClient(socket, first as unknown as Welcome);
        client.counts.framesIn += frames.length;
        client.counts.messagesIn += 1;
        for (const frame of rest) client.dispatch(frame);
        resolve(client);
      });
    });
  }

  /** Sends a publish frame; resolves with its confirm (after the broker's commit). */
  publish(frame: PublishFrame): Promise<Confirm> {
    const seq = this.nextSeq++;
    return new Promise<Confirm>((resolve, reject) => {
      if (this.failure) return reject(this.failure);
      this.confirms.set(seq, { resolve, reject });
      this.send({ type: 'publish', seq, ...frame });
    });
  }

  /** Subscribes `sub` to `queue`; `onMessage` is called for every delivery. Resolves on `subscribed`. */
  subscribe(sub: string, queue: string, prefetch: number, onMessage: (message: DeliveredMessage) => void): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (this.failure) return reject(this.failure);
      this.subscriptions.set(sub, onMessage);
      this.subscribeWaiters.set(sub, { resolve: () => resolve(), reject });
      this.send({ type: 'subscribe', sub, queue, prefetch });
    });
  }

  /** Changes a subscription's prefetch (0 pauses deliveries). No answer. */
  credit(sub: string, prefetch: number): void {
    this.send({ type: 'credit', sub, prefetch });
  }

  /** Acks without asking for an answer (the usual case: one frame, nothing back). */
  ack(ids: string[]): void {
    this.send({ type: 'ack', ids });
  }

  /** Acks and waits for `acked` (sent after the ack's commit). */
  ackConfirmed(ids: string[]): Promise<Frame> {
    const ref = this.nextRef++;
    return new Promise<Frame>((resolve, reject) => {
      if (this.failure) return reject(this.failure);
      this.refWaiters.set(ref, { resolve, reject });
      this.send({ type: 'ack', ids, ref });
    });
  }

  /** Stops reading the TCP socket (the broker's writes then back up), and starts again. */
  pause(): void {
    this.socket.pause();
  }

  resume(): void {
    this.socket.resume();
  }

  /** Publishes without a confirm yet. */
  get unconfirmed(): number {
    return this.confirms.size;
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  /** Bytes `ws` holds that the kernel has not taken yet (this side's own backlog). */
  get bufferedAmount(): number {
    return this.socket.bufferedAmount;
  }

  close(): Promise<void> {
    return new Promise<void>((done) => {
      if (this.closed || this.socket.readyState === WebSocket.CLOSED) return done();
      this.flush();
      this.socket.once('close', () => done());
      this.socket.close(1000);
      setTimeout(() => {
        this.socket.terminate();
        done();
      }, 2_000).unref();
    });
  }

  /** Closes at once, without a closing handshake (a client that vanished). */
  terminate(): void {
    this.closed = true;
    this.socket.terminate();
  }

  private send(frame: Frame): void {
    if (this.closed) throw this.failure ?? new Error('the stream is closed');
    this.outbox.push(frame);
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      // Everything this process produces in the current turn goes out as one WebSocket message.
      setImmediate(() => this.flush());
    }
  }

  private flush(): void {
    this.flushScheduled = false;
    if (this.outbox.length === 0 || this.socket.readyState !== WebSocket.OPEN) return;
    const frames = this.outbox;
    this.outbox = [];
    for (let start = 0; start < frames.length; start += MAX_FRAMES_PER_MESSAGE) {
      const chunk = frames.slice(start, start + MAX_FRAMES_PER_MESSAGE);
      this.socket.send(JSON.stringify(chunk.length === 1 ? chunk[0] : chunk));
      this.counts.messagesOut += 1;
    }
    this.counts.framesOut += frames.length;
  }

  private receive(data: WebSocket.RawData, isBinary: boolean): void {
    const buffer = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
    this.counts.messagesIn += 1;
    this.counts.bytesIn += buffer.byteLength;
    if (isBinary) return this.fail(new Error('the broker sent a binary message'));
    let parsed: unknown;
    try {
      parsed = JSON.parse(buffer.toString('utf8'));
    } catch {
      return this.fail(new Error('the broker sent a message that is not JSON'));
    }
    const frames = (Array.isArray(parsed) ? parsed : [parsed]) as Frame[];
    this.counts.framesIn += frames.length;
    for (const frame of frames) this.dispatch(frame);
  }

  private dispatch(frame: Frame): void {
    switch (frame.type) {
      case 'deliver': {
        const handler = this.subscriptions.get(frame.sub as string);
        if (!handler) return this.fail(new Error(`a delivery for an unknown subscription: ${describe(frame)}`));
        handler(frame.message as DeliveredMessage);
        return;
      }
      case 'confirm':
      case 'reject': {
        const seq = frame.seq as number;
        const waiter = this.confirms.get(seq);
        if (!waiter) return this.fail(new Error(`a ${frame.type} for no publish in flight: ${describe(frame)}`));
        this.confirms.delete(seq);
        if (frame.type === 'confirm') waiter.resolve(frame as unknown as Confirm);
        else waiter.reject(new Error(`publish ${seq} rejected: ${describe(frame)}`));
        return;
      }
      case 'subscribed':
      case 'unsubscribed':
        return take(this.subscribeWaiters, frame.sub as string)?.resolve(frame);
      case 'acked':
      case 'nacked':
      case 'extended':
        return take(this.refWaiters, frame.ref as number)?.resolve(frame);
      case 'subscription_ended':
        return this.fail(new Error(`the broker ended a subscription: ${describe(frame)}`));
      case 'error': {
        const error = new Error(`the broker answered error: ${describe(frame)}`);
        // The frame it answers: a publish (seq), a subscribe (sub) or an ack/nack/extend (ref).
        const waiter =
          (typeof frame.seq === 'number' && take(this.confirms, frame.seq)) ||
          (typeof frame.sub === 'string' && take(this.subscribeWaiters, frame.sub)) ||
          (typeof frame.ref === 'number' && take(this.refWaiters, frame.ref));
        if (waiter) return waiter.reject(error);
        return this.fail(error);
      }
      default:
        // A frame this client does not know (a newer broker): not an error of the workload.
        return;
    }
  }

  /** Records the error for every later call and rejects everything waiting. */
  private fail(error: Error): void {
    this.failure ??= error;
    this.failAll(error);
  }

  private failAll(error: Error): void {
    this.failure ??= error;
    for (const waiter of this.confirms.values()) waiter.reject(error);
    this.confirms.clear();
    for (const waiter of this.subscribeWaiters.values()) waiter.reject(error);
    this.subscribeWaiters.clear();
    for (const waiter of this.refWaiters.values()) waiter.reject(error);
    this.refWaiters.clear();
  }

  /** The first error of the stream, if any (a consumer workload checks it when it ends). */
  get error(): Error | null {
    return this.failure;
  }
}
