import { ConnectionError } from '../errors.js';
import { backoffDelay, RETRYABLE_STATUSES, type RetryPolicy } from '../http/retryPolicy.js';
import { socketError } from '../realtime/socket.js';
import { FrameBatcher, type Schedule } from './batcher.js';
import { decodeFrames, type BrokerFrame, type ClientFrame, type StreamLimits } from './frames.js';
import { NoWebSocketError, type OpenStreamSocket, type StreamSocket } from './socket.js';

export interface Welcome {
  streamId: string;
  resumed: boolean;
  limits: StreamLimits | undefined;
}

export interface ConnectionHandlers {
  /** The broker welcomed a stream (new, or the old one resumed): resend and resubscribe now. */
  opened(welcome: Welcome): void;
  frame(frame: BrokerFrame): void;
  /** An attempt failed or an open stream was lost (`closed`: its close code and reason); `failures` counts them in a row. */
  lost(error: Error, failures: number, closed?: { code: number; reason: string }): void;
  /** A stream cannot work here (the handshake was refused, no WebSocket): from now on, HTTP. */
  unavailable(reason: Error): void;
  /**
   * The handshake refused the credential (401, 403): HTTP would refuse it too, so this is the
   * answer, not a reason to fall back. The next call asks again (the key may have been fixed).
   */
  refused(error: Error): void;
  /** Whether anything waits on the stream; a lost stream nobody needs is reopened on next use. */
  busy(): boolean;
}

export interface ConnectionOptions {
  open: OpenStreamSocket;
  /** The handshake URL, naming the token of the stream to resume when there is one. */
  url(resumeToken: string | undefined): URL;
  /** Backoff between attempts (baseDelayMs, maxDelayMs). */
  backoff: RetryPolicy;
  /**
   * An attempt to open failed (not an open stream lost): true when the next attempt should go at
   * once, to another broker URL not tried since the stream was last open.
   */
  unreachable?(): boolean;
  schedule?: Schedule;
  handlers: ConnectionHandlers;
}

type State = 'idle' | 'connecting' | 'open' | 'waiting' | 'unavailable' | 'closed';

/**
 * One WebSocket to `/ws/v1/stream` and its life: opens on first use, waits for the broker's
 * `welcome`, writes the frames of each turn as one message, and after a loss reopens with jittered
 * backoff, naming the old stream's `resume_token` (an attempt that finds the broker away goes to
 * the next broker URL at once, when there is one). A handshake refused for the credential (401,
 * 403) is that refusal, told to what waits, the stream staying ready to try again on next use;
 * another refused handshake (a status that retrying will not change, such as an older broker's
 * 404) or a runtime without WebSockets makes it unavailable for good.
 */
export class StreamConnection {
  private state: State = 'idle';
  private socket: StreamSocket | undefined;
  private resumeToken: string | undefined;
  private failures = 0;
  private held = true;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly batcher: FrameBatcher;

  constructor(private readonly options: ConnectionOptions) {
    this.batcher = new FrameBatcher((message) => this.socket?.send(message), options.schedule);
  }

  get isOpen(): boolean {
    return this.state === 'open';
  }

  get isUnavailable(): boolean {
    return this.state === 'unavailable';
  }

  /** Queues a frame for this turn's message; false when the stream is not open (it is opened then). */
  send(frame: ClientFrame): boolean {
    if (this.state === 'open') {
      this.batcher.push(frame);
      return true;
    }
    this.connect();
    return false;
  }

  /** Runs `prepare` right before this turn's frames are written, for frames that coalesce (acks). */
  beforeFlush(prepare: () => void): void {
    this.batcher.defer(prepare);
  }

  /** Opens the stream if nothing is under way (a backoff that is running is waited out). */
  connect(): void {
    if (this.state === 'idle') void this.attempt();
  }

  /** false lets a Node process exit while nothing waits on the stream. */
  hold(held: boolean): void {
    if (this.held === held) return;
    this.held = held;
    this.socket?.hold(held);
  }

  /** Writes what this turn queued, then closes for good. */
  close(): void {
    if (this.state === 'closed') return;
    this.batcher.flush();
    this.state = 'closed';
    clearTimeout(this.timer);
    this.socket?.close(1000, 'client closed');
    this.socket = undefined;
  }

  private async attempt(): Promise<void> {
    this.state = 'connecting';
    let socket: StreamSocket;
    try {
      socket = await this.options.open(this.options.url(this.resumeToken));
    } catch (error) {
      const reason = error instanceof Error ? error : new Error(String(error));
      if (isCredentialRefusal(reason)) return this.refused(reason);
      return this.failed(reason, error instanceof NoWebSocketError || isRefusal(reason));
    }
    if ((this.state as State) === 'closed') return socket.close(1000, 'client closed');
    this.socket = socket;
    let opened = false;
    let lastError: Error | undefined;
    socket.onopen = () => {
      opened = true;
      socket.hold(this.held);
    };
    socket.onmessage = (event) => this.receive(event.data);
    socket.onerror = (event) => (lastError = socketError(event));
    socket.onclose = (event) => this.closed(socket, opened, lastError, event);
  }

  private receive(data: unknown): void {
    const text = typeof data === 'string' ? data : new TextDecoder().decode(data as ArrayBuffer);
    for (const frame of decodeFrames(text)) {
      if (frame.type === 'welcome') this.welcomed(frame);
      else if (this.state === 'open') this.handle(frame);
    }
  }

  private welcomed(frame: Extract<BrokerFrame, { type: 'welcome' }>): void {
    if (this.state !== 'connecting') return;
    this.state = 'open';
    this.failures = 0;
    this.resumeToken = frame.resume_token;
    if (frame.limits?.max_message_bytes) this.batcher.maxBytes = frame.limits.max_message_bytes;
    this.options.handlers.opened({ streamId: frame.stream_id, resumed: frame.resumed === true, limits: frame.limits });
  }

  private handle(frame: BrokerFrame): void {
    try {
      this.options.handlers.frame(frame);
    } catch (error) {
      // A failing callback must not take the stream down with it; say it without throwing.
      setTimeout(() => console.error(error), 0);
    }
  }

  private closed(socket: StreamSocket, opened: boolean, error: Error | undefined, event: { code: number; reason: string }): void {
    if (this.socket !== socket) return;
    this.socket = undefined;
    this.batcher.discard();
    if (this.state === 'closed') return;
    if (!opened && isCredentialRefusal(error)) return this.refused(error);
    const refused = !opened && (isRefusal(error) || socket.refusedWhenClosedEarly);
    const reason = error ?? new ConnectionError({ status: 0, message: `The stream closed (${event.code}${event.reason ? `: ${event.reason}` : ''})` });
    this.failed(refused && !error ? new Error('the broker refused the stream handshake') : reason, refused, opened ? event : undefined);
  }

  private refused(error: Error): void {
    if (this.state === 'closed') return;
    this.state = 'idle';
    this.options.handlers.refused(error);
  }

  private failed(error: Error, permanent: boolean, closed?: { code: number; reason: string }): void {
    if (this.state === 'closed') return;
    if (permanent) {
      this.state = 'unavailable';
      return this.options.handlers.unavailable(error);
    }
    this.failures++;
    this.state = 'idle';
    // Before `lost`, so that what it does (and the next attempt) already sees the URL moved on.
    const elsewhere = !closed && this.options.unreachable?.() === true;
    this.options.handlers.lost(error, this.failures, closed && { code: closed.code, reason: closed.reason });
    if (this.state !== 'idle' || !this.options.handlers.busy()) return;
    this.state = 'waiting';
    this.timer = setTimeout(
      () => {
        this.state = 'idle';
        void this.attempt();
      },
      elsewhere ? 0 : backoffDelay(this.options.backoff, this.failures),
    );
  }
}

/** The handshake refused who is asking (401 unauthenticated, 403 origin_not_allowed). */
function isCredentialRefusal(error: Error | undefined): error is Error {
  const status = (error as { status?: unknown } | undefined)?.status;
  return status === 401 || status === 403;
}

/** A handshake answered with a status that retrying will not change (400, 401, 403, 404…). */
function isRefusal(error: Error | undefined): boolean {
  const status = (error as { status?: unknown } | undefined)?.status;
  return typeof status === 'number' && status > 0 && !RETRYABLE_STATUSES.has(status);
}
