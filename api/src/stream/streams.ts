import type { WebSocket } from 'ws';
import type { Principal } from '../auth/principal.js';
import type { Changes } from '../broker/changes.js';
import type { HeldMessage } from '../db/queries/messageClaim.js';
import { Lifecycle } from '../lifecycle/lifecycle.js';
import type { Service } from '../lifecycle/service.js';
import { StreamSession } from './session.js';
import type { StreamDeps } from './streamDeps.js';

/**
 * Close codes after which a stream is not kept for a resume: the client said it is done (1000), the
 * broker is shutting down (1001), the credential ended (1008), or the stream broke the protocol.
 */
const FINAL_CLOSES = new Set([1000, 1001, 1008, 4400]);

export interface StreamsDeps extends StreamDeps {
  changes: Changes;
  /** Puts held messages back to PENDING and announces them (broker/putBack.ts). */
  release(held: HeldMessage[], holder: string): Promise<unknown>;
  /** Gives up the holder's turns on single-active-consumer queues (broker/gatedClaims.ts). */
  resign(queues: string[], holder: string): Promise<void>;
}

/** What a handshake asked of its stream. */
export interface StreamRequest {
  principal: Principal;
  identity: { holder: string; consumerId: string };
  resume?: string;
}

/**
 * The streams of this instance, attached or waiting to be resumed. A stream whose socket closed
 * is kept for `resume_grace_ms`; a handshake of the same credential and identity that names its
 * resume token in that time takes it over. Otherwise, and at once after a final close, what its
 * subscriptions held goes back to PENDING (retry count unchanged) and other consumers get it.
 */
export class Streams implements Service {
  readonly name = 'streams';
  private readonly life = new Lifecycle(this.name);
  private readonly byToken = new Map<string, StreamSession>();
  private readonly bySocket = new Map<WebSocket, StreamSession>();
  private readonly graceTimers = new Map<StreamSession, ReturnType<typeof setTimeout>>();
  private readonly releasing = new Set<Promise<void>>();

  constructor(private readonly deps: StreamsDeps) {}

  get attachedCount(): number {
    return this.bySocket.size;
  }

  /** A socket's handshake completed: a new stream, or the one its resume token names. */
  open(socket: WebSocket, request: StreamRequest): void {
    const found = request.resume ? this.byToken.get(request.resume) : undefined;
    const resumable = found && found.credentialId === request.principal.credentialId && found.identity.holder === request.identity.holder;
    const session = resumable ? found : new StreamSession(request.principal, request.identity, this.deps);
    if (resumable) this.takeOver(session);
    else this.byToken.set(session.resumeToken, session);
    this.bySocket.set(socket, session);
    session.attach(socket, Boolean(resumable));
  }

  /** The socket closed (or is being closed with `code`): keep its stream for a resume, or end it. */
  closed(socket: WebSocket, code: number): void {
    const session = this.bySocket.get(socket);
    if (!session) return;
    this.bySocket.delete(socket);
    session.detach();
    if (FINAL_CLOSES.has(code) || this.life.stopped) return this.end(session);
    this.graceTimers.set(
      session,
      setTimeout(() => this.end(session), this.deps.limits.resume_grace_ms),
    );
  }

  /** The credential's scopes are these now: every stream of it checks its frames against them. */
  rescope(credentialId: string, scopes: string[]): void {
    for (const session of this.byToken.values()) {
      if (session.credentialId !== credentialId) continue;
      this.track(this.releaseHeld(session.rescope(scopes), session.identity.holder));
    }
  }

  queueDeleted(queue: string): void {
    for (const session of this.byToken.values()) session.queueDeleted(queue);
  }

  /** Ends the streams of a credential that ended (their sockets are closed by the caller). */
  credentialEnded(credentialId: string): void {
    for (const session of [...this.byToken.values()]) if (session.credentialId === credentialId && !session.attached) this.end(session);
  }

  start(): Promise<void> {
    return this.life.start(() => undefined);
  }

  /** Ends every stream at once and waits until what they held is back in its queues. */
  stop(): Promise<void> {
    return this.life.stop(async () => {
      for (const session of [...this.byToken.values()]) this.end(session);
      await Promise.allSettled([...this.releasing]);
    });
  }

  health() {
    return this.life.health();
  }

  /** Settled once every release under way has finished (tests). */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.releasing]);
  }

  private takeOver(session: StreamSession): void {
    clearTimeout(this.graceTimers.get(session));
    this.graceTimers.delete(session);
    for (const [socket, owner] of this.bySocket) {
      // The old socket has not noticed it is gone: the new one has the stream now.
      if (owner !== session) continue;
      this.bySocket.delete(socket);
      session.detach();
      socket.terminate();
    }
  }

  private end(session: StreamSession): void {
    clearTimeout(this.graceTimers.get(session));
    this.graceTimers.delete(session);
    if (this.byToken.get(session.resumeToken) !== session) return;
    this.byToken.delete(session.resumeToken);
    const queues = session.subscribedQueues();
    this.track(
      session
        .end()
        .then((held) => this.releaseHeld(held, session.identity.holder))
        .then(() => this.resign(queues, session.identity.holder)),
    );
  }

  /** After its messages went back: the next consumer need not wait for this stream's turns to lapse. */
  private async resign(queues: string[], holder: string): Promise<void> {
    if (queues.length === 0) return;
    try {
      await this.deps.resign(queues, holder);
    } catch (error) {
      // Its turns lapse as any idle consumer's do (gatedClaims.ts).
      this.deps.log('Could not give up the turns of a closed stream', error);
    }
  }

  private async releaseHeld(held: HeldMessage[], holder: string): Promise<void> {
    if (held.length === 0) return;
    try {
      await this.deps.release(held, holder);
    } catch (error) {
      // Their leases run out as any lease does; the lease sweeper gives them back then.
      this.deps.log('Could not give back the messages of a closed stream', error);
    }
  }

  private track(work: Promise<void>): void {
    this.releasing.add(work);
    void work.finally(() => this.releasing.delete(work));
  }
}
