import { randomBytes } from 'node:crypto';
import { WebSocket } from 'ws';
import { ForbiddenError, NotFoundError, ValidationError } from '../errors.js';
import { consumableQueues, hasScope } from '../auth/scopes.js';
import type { Principal } from '../auth/principal.js';
import { isDatabaseUnavailable } from '../db/errors.js';
import type { HeldMessage } from '../db/queries/messageClaim.js';
import type { ClaimBudget } from '../broker/longPoll.js';
import type { MessageRow } from '../db/queries/messageRow.js';
import type { Holder } from '../broker/settle.js';
import { toMessage } from '../broker/message.js';
import { errorBodyOf } from './errorBody.js';
import type { AckFrame, ClientFrame, CreditFrame, ExtendFrame, NackFrame, SubscribeFrame, WatchFrame } from '@miniqueue/sdk';
import type { FrameHandle } from './frames.js';
import { FrameIntake } from './intake.js';
import { Outbox } from './outbox.js';
import { StreamPublishes } from './publishing.js';
import type { StreamDeps } from './streamDeps.js';
import { Subscription } from './subscription.js';
import { StreamWatches, WATCH_SCOPE, watchingFrame } from './watches.js';
import { CLOSE_PROTOCOL_VIOLATIONS, Violations } from './violations.js';
/** How long a subscription's claim waits (as a long poll) before it claims again. */
const CLAIM_WAIT_SECONDS = 20;

/** The HTTP ack's failures that say the message is not this stream's any more. */
const NOT_HELD = new Set(['lease_lost', 'message_not_unacked', 'message_not_found']);

/**
 * One stream: its credential, its publishes, its subscriptions and watches, and the socket it is attached
 * to (none while it waits to be resumed). Each frame is checked as the HTTP route doing the same
 * checks its request (scopes are read per frame, so a narrowed credential takes effect at once),
 * and answered on the socket the stream has when the answer is ready.
 */
export class StreamSession {
  readonly id = randomBytes(12).toString('base64url');
  readonly resumeToken = randomBytes(24).toString('base64url');
  private socket: WebSocket | undefined;
  private readonly outbox: Outbox;
  /** What this stream's claims may bring back: what its output (and the broker's) may still take. */
  private readonly budget: ClaimBudget;
  private readonly stopHearingRoom: () => void;
  private readonly publishes: StreamPublishes;
  private readonly subscriptions = new Map<string, Subscription>();
  /** Unsubscribed, still holding messages the client may settle: not released with the stream (their leases run out). */
  private readonly retired = new Set<Subscription>();
  /** Watches of the live feed; their names and the subscriptions' are one set. */
  private readonly watches: StreamWatches;
  private readonly violations = new Violations();
  private readonly intake: FrameIntake;
  private reading = true;

  constructor(
    private principal: Principal,
    readonly identity: { holder: string; consumerId: string },
    private readonly deps: StreamDeps,
  ) {
    this.outbox = new Outbox(() => this.flowChanged(), deps.output);
    this.budget = {
      reserve: (limit) => this.outbox.reserveClaim(limit),
      claimed: (reserved, rows) => this.outbox.claimed(reserved, rows.length, payloadLengths(rows)),
    };
    // The broker's total output fell below its cap: this stream may claim again.
    this.stopHearingRoom = deps.output.onRoom(() => this.flowChanged());
    this.publishes = new StreamPublishes({
      publisher: deps.publisher,
      maxPayloadBytes: deps.config.maxPayloadBytes,
      remembered: 2 * deps.limits.max_unconfirmed,
      send: (frame) => this.outbox.send(frame),
      changed: () => this.flowChanged(),
      unexpected: (error) => deps.log('Stream frame failed', error),
    });
    this.intake = new FrameIntake({
      takeToken: () => deps.rateLimits.takeCredential(this.principal),
      maxMessageBytes: deps.limits.max_message_bytes,
      open: () => this.open,
      dispatch: (frame) => this.dispatch(frame),
      refuse: (error, handle) => this.refuse(error, handle),
      changed: () => this.flowChanged(),
    });
    this.watches = new StreamWatches({
      monitor: deps.monitor,
      send: (frame, bytes) => this.outbox.send(frame, bytes),
      ready: () => this.socket !== undefined && !this.outbox.congested,
    });
  }

  get credentialId(): string {
    return this.principal.credentialId;
  }

  get attached(): boolean {
    return this.socket !== undefined;
  }

  /** Starts (or, resumed, goes on) on this socket: welcome first, then what it held, sent again. */
  attach(socket: WebSocket, resumed: boolean): void {
    this.socket = socket;
    this.outbox.attach(socket);
    this.reading = true;
    this.outbox.send({ type: 'welcome', stream_id: this.id, resume_token: this.resumeToken, resumed, limits: this.deps.limits });
    socket.on('message', (data: Buffer, isBinary: boolean) => this.intake.received(data, isBinary));
    if (resumed) void this.sendHeldAgain();
    for (const subscription of this.subscriptions.values()) subscription.poke();
  }

  /** The socket closed: nothing more is sent or claimed until a resume attaches another. */
  detach(): void {
    this.socket = undefined;
    this.outbox.attach(undefined);
    this.intake.stop();
  }

  /** The queues this stream subscribed to (unsubscribed ones too): whose turns it gives up when it ends. */
  subscribedQueues(): string[] {
    return [...new Set([...this.subscriptions.values(), ...this.retired].map((subscription) => subscription.queue))];
  }

  /**
   * Ends every subscription; answers what the live ones held, for the caller to release. What an
   * unsubscribed one holds is not the stream's to give back (asyncapi.yaml, unsubscribe): it stays
   * the holder's until settled (over HTTP, too) or its lease ends.
   */
  async end(): Promise<HeldMessage[]> {
    const subscriptions = [...this.subscriptions.values()];
    this.watches.end();
    this.stopHearingRoom();
    this.subscriptions.clear();
    this.retired.clear();
    await Promise.all(subscriptions.map((subscription) => subscription.stop()));
    return subscriptions.flatMap((subscription) => subscription.holding());
  }

  /** The credential's scopes changed: later frames are checked against these; subscriptions and watches they do not allow end. */
  rescope(scopes: string[]): HeldMessage[] {
    this.principal = { ...this.principal, scopes };
    this.watches.rescope(hasScope(this.principal, WATCH_SCOPE));
    const ended: HeldMessage[] = [];
    for (const subscription of [...this.subscriptions.values()]) {
      const scope = `consume:${subscription.queue}`;
      if (hasScope(this.principal, scope)) continue;
      ended.push(...this.endSubscription(subscription, new ForbiddenError('scope_required', `This needs the scope ${scope} (or admin)`, scope)));
    }
    return ended;
  }

  /** A queue was deleted: its subscriptions end (what they held went with it). */
  queueDeleted(queue: string): void {
    for (const subscription of [...this.subscriptions.values()]) {
      if (subscription.queue === queue) this.endSubscription(subscription, new NotFoundError('queue_not_found', `Queue ${queue} was deleted`));
    }
  }

  /**
   * Frames are applied only while the socket is open: none after the one that closed it (4400),
   * after a message too large (1009) or once the credential ended (1008), the backlog's included.
   */
  private get open(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  private dispatch(frame: ClientFrame): void {
    switch (frame.type) {
      case 'publish':
        return this.publishes.publish(this.principal, frame);
      case 'subscribe':
        return void this.subscribe(frame);
      case 'credit':
        return this.credit(frame);
      case 'unsubscribe': {
        const subscription = this.subscriptions.get(frame.sub);
        if (!subscription) return this.answerError(new NotFoundError('route_not_found', `No subscription ${frame.sub} on this stream`), { sub: frame.sub });
        this.subscriptions.delete(frame.sub);
        this.retired.add(subscription);
        void subscription.stop().then(() => this.outbox.send({ type: 'unsubscribed', sub: frame.sub }));
        return;
      }
      case 'ack':
        return this.ack(frame);
      case 'nack':
        return this.nack(frame);
      case 'extend':
        return this.extend(frame);
      case 'watch':
        return void this.watch(frame);
      case 'unwatch':
        if (!this.watches.remove(frame.sub))
          return this.answerError(new NotFoundError('route_not_found', `No watch ${frame.sub} on this stream`), { sub: frame.sub });
        return this.outbox.send({ type: 'unwatched', sub: frame.sub });
    }
  }

  /** The name is this stream's already (for something else), or the stream has all it may hold: a refusal; else undefined. */
  private unavailableName(sub: string, what: string): ValidationError | undefined {
    if (this.subscriptions.has(sub) || this.watches.queueOf(sub) !== undefined) {
      return new ValidationError(`${sub} is already in use on this stream`, [{ field: 'sub', message: `is already in use on this stream for ${what}` }]);
    }
    const max = this.deps.limits.max_subscriptions;
    if (this.subscriptions.size + this.watches.size >= max) {
      return new ValidationError(`A stream holds at most ${max} subscriptions and watches`, [{ field: 'sub', message: `at most ${max} per stream` }]);
    }
    return undefined;
  }

  /** As /ws/monitor's handshake: needs `view` (or admin). A watch sent again with the same filter is the same watch. */
  private async watch(frame: WatchFrame): Promise<void> {
    const handle = { sub: frame.sub };
    const queue = frame.queue ?? null;
    if (!hasScope(this.principal, WATCH_SCOPE)) {
      return this.refuse(new ForbiddenError('scope_required', `This needs the scope ${WATCH_SCOPE} (or admin)`, WATCH_SCOPE), handle);
    }
    if (this.watches.queueOf(frame.sub) === queue) return this.outbox.send(watchingFrame(frame.sub, queue));
    const refusal = this.unavailableName(frame.sub, this.subscriptions.has(frame.sub) ? 'a subscription' : 'another watch');
    if (refusal) return this.answerError(refusal, handle);
    try {
      await this.watches.add(frame.sub, queue);
    } catch (error) {
      this.answerError(error, handle);
    }
  }

  private async subscribe(frame: SubscribeFrame): Promise<void> {
    const handle = { sub: frame.sub };
    const scope = `consume:${frame.queue}`;
    if (!hasScope(this.principal, scope)) return this.refuse(new ForbiddenError('scope_required', `This needs the scope ${scope} (or admin)`, scope), handle);
    // A `sub` in use is refused, the same queue's too (a prefetch changes by `credit`); not counted as
    // a violation: a client that resumed sends again the subscribes it saw no answer to.
    const existing = this.subscriptions.get(frame.sub);
    const refusal = this.unavailableName(frame.sub, existing ? `a subscription to ${existing.queue}` : 'a watch');
    if (refusal) return this.answerError(refusal, handle);
    const subscription: Subscription = new Subscription(frame.sub, frame.queue, frame.prefetch, {
      claim: (limit, signal) => this.claim(frame.queue, limit, signal),
      deliver: (row) => this.deliver(frame.sub, row),
      blocked: () => !this.outbox.claimable,
      failed: (error): 'end' | 'retry' => this.claimFailed(subscription, error),
    });
    // Taken before the queue is looked up, so a second subscribe of the same name is refused meanwhile.
    this.subscriptions.set(frame.sub, subscription);
    let exists: boolean;
    try {
      exists = await this.deps.queueExists(frame.queue);
    } catch (error) {
      this.subscriptions.delete(frame.sub);
      return this.answerError(error, handle);
    }
    if (this.subscriptions.get(frame.sub) !== subscription) return;
    if (!exists) {
      this.subscriptions.delete(frame.sub);
      return this.answerError(new NotFoundError('queue_not_found', `No queue found with the name ${frame.queue}`), handle);
    }
    this.outbox.send({ type: 'subscribed', sub: frame.sub, queue: frame.queue, prefetch: frame.prefetch });
    subscription.start();
  }

  private credit(frame: CreditFrame): void {
    const subscription = this.subscriptions.get(frame.sub);
    if (!subscription) return this.answerError(new NotFoundError('route_not_found', `No subscription ${frame.sub} on this stream`), { sub: frame.sub });
    subscription.setPrefetch(frame.prefetch);
  }

  private claim(queue: string, limit: number, signal: AbortSignal): Promise<MessageRow[]> {
    this.deps.rates.polled(queue, this.identity.consumerId);
    return this.deps.claim({ queue, ...this.identity, limit, waitSeconds: CLAIM_WAIT_SECONDS, signal, budget: this.budget });
  }

  private claimFailed(subscription: Subscription, error: unknown): 'end' | 'retry' {
    if (isDatabaseUnavailable(error)) return 'retry';
    this.subscriptions.delete(subscription.sub);
    this.outbox.send({ type: 'subscription_ended', sub: subscription.sub, ...errorBodyOf(error, (e) => this.deps.log('Stream claim failed', e)) });
    return 'end';
  }

  private endSubscription(subscription: Subscription, why: Error): HeldMessage[] {
    this.subscriptions.delete(subscription.sub);
    void subscription.stop();
    this.outbox.send({ type: 'subscription_ended', sub: subscription.sub, ...errorBodyOf(why, () => undefined) });
    return subscription.holding();
  }

  private deliver(sub: string, row: MessageRow, resent = false): void {
    this.outbox.send(resent ? { type: 'deliver', sub, message: toMessage(row), resent } : { type: 'deliver', sub, message: toMessage(row) });
  }

  /** After a resume: what the subscriptions hold is sent again (the client may not have had it), marked `resent`. */
  private async sendHeldAgain(): Promise<void> {
    const bySub = new Map<string, string>();
    for (const subscription of this.subscriptions.values()) for (const held of subscription.holding()) bySub.set(held.id, subscription.sub);
    if (bySub.size === 0) return;
    try {
      const rows = await this.deps.heldBy([...bySub.keys()], this.identity.holder);
      for (const row of rows) this.outbox.send({ type: 'deliver', sub: bySub.get(row.id) as string, message: toMessage(row), resent: true });
    } catch (error) {
      this.deps.log('Could not send a resumed stream its messages again', error);
    }
  }

  /** Who settles, and on which queues it may (as HTTP's holderOf); refused without any consume scope. */
  private holder(): Holder {
    const queues = consumableQueues(this.principal);
    if (queues !== null && queues.length === 0) throw new ForbiddenError('scope_required', 'Settling messages needs a consume scope');
    return { ...this.identity, queues };
  }

  private forget(id: string): void {
    for (const subscription of this.subscriptions.values()) if (subscription.settled(id)) return;
    for (const subscription of this.retired) {
      if (!subscription.settled(id)) continue;
      if (subscription.holding().length === 0) this.retired.delete(subscription);
      return;
    }
  }

  private ack(frame: AckFrame): void {
    const handle = { ref: frame.ref };
    this.settling(handle, async (holder) => {
      const result = await this.deps.settler.ackMany(frame.ids, holder);
      for (const acked of result.acked) this.forget(acked.id);
      for (const failed of result.failed) if (NOT_HELD.has(failed.code)) this.forget(failed.message_id);
      if (frame.ref !== undefined) this.outbox.send({ type: 'acked', ref: frame.ref, acked: result.acked.map((row) => row.id), failed: result.failed });
    });
  }

  private nack(frame: NackFrame): void {
    this.settling({ ref: frame.ref }, async (holder) => {
      try {
        const row = await this.deps.settler.nackOne(frame.id, holder, {
          requeue: frame.requeue ?? true,
          delaySeconds: frame.delay_seconds ?? 0,
          reason: frame.reason || null,
          countRetry: frame.count_retry ?? true,
        });
        this.forget(frame.id);
        if (frame.ref !== undefined) this.outbox.send({ type: 'nacked', ref: frame.ref, message_id: row.id, status: row.status });
      } catch (error) {
        if (error instanceof Error && 'code' in error && NOT_HELD.has(String(error.code))) this.forget(frame.id);
        throw error;
      }
    });
  }

  private extend(frame: ExtendFrame): void {
    this.settling({ ref: frame.ref }, async (holder) => {
      // The single-id form is answered as the HTTP extend (or `error`); the `ids` form per id, as `ack`.
      const result = frame.ids
        ? await this.deps.settler.extendMany(frame.ids, holder, frame.seconds)
        : { extended: [await this.deps.settler.extend(frame.id, holder, frame.seconds)], failed: [] };
      const held = [...this.subscriptions.values(), ...this.retired];
      for (const extended of result.extended) for (const subscription of held) subscription.extended(extended.id, extended.lease_expires_at);
      if (frame.ref === undefined) return;
      const leases = result.extended.map((row) => ({ message_id: row.id, lease_expires_at: row.lease_expires_at.toISOString() }));
      if (frame.ids === undefined) this.outbox.send({ type: 'extended', ref: frame.ref, ...leases[0] });
      else this.outbox.send({ type: 'extended', ref: frame.ref, extended: leases, failed: result.failed });
    });
  }

  /** Runs a settling frame; its failure is answered `error` (with the frame's `ref`). */
  private settling(handle: FrameHandle, run: (holder: Holder) => Promise<void>): void {
    let holder: Holder;
    try {
      holder = this.holder();
    } catch (error) {
      return this.refuse(error, handle);
    }
    run(holder).catch((error: unknown) => this.answerError(error, handle));
  }

  /**
   * A frame refused for what the client sent: answered, and counted against the stream. The one too
   * many closes it, after every answer so far is written (a close drops what is not).
   */
  private refuse(error: unknown, handle: FrameHandle): void {
    this.answerError(error, handle);
    if (!this.violations.counted() || !this.open) return;
    this.outbox.flushNow();
    this.socket?.close(CLOSE_PROTOCOL_VIOLATIONS, 'too many refused frames');
  }

  private answerError(error: unknown, handle: FrameHandle): void {
    const body = errorBodyOf(error, (e) => this.deps.log('Stream frame failed', e));
    if (handle.seq !== undefined) return this.outbox.send({ type: 'reject', seq: handle.seq, ...body });
    this.outbox.send({ type: 'error', ...handle, ...body });
  }

  /**
   * Reads the socket, or stops reading it: stopped while too many publishes are unconfirmed, while
   * the client is not taking what is sent to it, or while the rate limit has no token. Subscriptions
   * are told when the stream can take deliveries again.
   */
  private flowChanged(): void {
    const socket = this.socket;
    if (!socket) return;
    const congested = this.outbox.congested;
    const read = !congested && this.publishes.unconfirmed < this.deps.limits.max_unconfirmed && !this.intake.waiting;
    if (read !== this.reading) {
      this.reading = read;
      if (read) socket.resume();
      else socket.pause();
    }
    if (!congested) for (const subscription of this.subscriptions.values()) subscription.poke();
  }
}

/** The payloads' lengths of a claim, summed: what its deliveries will about weigh. */
function payloadLengths(rows: MessageRow[]): number {
  let length = 0;
  for (const row of rows) length += row.payload.length;
  return length;
}
