import type { ConsumerFatalError } from './fatal.js';
import type { AckResult, ExtendResult, Message, NackResult } from '../generated/index.js';
import type { SocketEndpoint } from '../realtime/socket.js';
import type { StreamSubscription } from '../stream/subscription.js';
import type { NackOptions, ReceiveOptions } from '../resources/messages.js';

export interface HandlerContext {
  /**
   * Aborted when the consumer loses the message's lease (LeaseLostError: another consumer may
   * have it now) or when stop() gives up waiting; a long handler should stop its work then.
   */
  signal: AbortSignal;
  /** Extends the lease by `seconds` from now, beyond what the heartbeat does; the message is still handed back at `maxExtensionSeconds`. */
  extend(seconds: number): Promise<void>;
}

/** Resolving acks the message; throwing nacks it (or dead-letters it, see ConsumerOptions.deadLetter). */
export type MessageHandler = (message: Message, context: HandlerContext) => unknown | Promise<unknown>;

export interface HeartbeatOptions {
  /** Milliseconds between extensions. Default: half the message's lease. */
  intervalMs?: number;
  /** Seconds each extension grants, from now. Default: the message's lease length. */
  extendSeconds?: number;
}

export interface ConsumerOptions {
  /** Handlers running at once. Default 1. */
  concurrency?: number;
  /** Messages claimed per request (1..100), never more than the free handler slots. Default: concurrency, at most 100. */
  batchSize?: number;
  /**
   * Over the stream: how many unacked messages (1..1000) the broker may push ahead, handlers
   * running included; those not yet handled wait in memory. Default: twice concurrency, at most 1000.
   */
  prefetch?: number;
  /** Over HTTP: the long-poll wait of each claim request, 0..20 seconds. Default 20. */
  waitSeconds?: number;
  /**
   * Seconds (0..900) before a message whose handler threw is claimable again: a number, or a
   * function of the message and the error. Default: 2^retry_count, at most 300.
   */
  nackDelay?: number | ((message: Message, error: unknown) => number);
  /**
   * Which handler errors send the message straight to the dead-letter queue instead of a retry.
   * Default: instances of DeadLetterError.
   */
  deadLetter?: (error: unknown, message: Message) => boolean;
  /**
   * Keeps the lease of every message the consumer holds alive, waiting in its buffer (`prefetch`)
   * or in a handler: each is extended every half lease, by one lease (coalesced: one extension
   * round, one `extend` frame, for all that are due). Default on; false turns it off (a message
   * then keeps only the lease it was claimed with).
   */
  heartbeat?: HeartbeatOptions | false;
  /**
   * Seconds a message may be held, from its delivery, while its lease is extended (as Pub/Sub's
   * client's maximum extension). Then it is handed back before its lease ends: PENDING again with
   * its retry count unchanged and no delay, for any consumer. A handler still running then sees its
   * signal abort (LeaseLostError) and its outcome is not applied. Default 3600 (one hour);
   * `Infinity` never hands back.
   */
  maxExtensionSeconds?: number;
  /** How long stop() waits for running handlers, in milliseconds. Default 30000. */
  stopTimeoutMs?: number;
  /**
   * Over HTTP (`transport: 'http'`, or where the stream cannot open): also listen on the broker's `/ws/consume` WebSocket and claim as soon as a message is
   * announced; long polling stays the fallback while the socket is down. Default false.
   */
  push?: boolean;
  /**
   * A claim refused for good (401: the key is wrong, expired or revoked; 403: it lacks the
   * queue's consume scope; 404: no such queue) stops the consumer with a `fatal` event. True
   * keeps retrying those with backoff instead, reporting each as a claim error (for a queue that
   * is about to be created, or a key about to be granted the scope). Default false.
   */
  retryPermanentErrors?: boolean;
}

export type Outcome = 'acked' | 'requeued' | 'dead';

export interface ProcessedEvent {
  message: Message;
  outcome: Outcome;
  /** What the handler threw, when it threw. */
  error?: unknown;
  /** Handler time in milliseconds. */
  durationMs: number;
}

export type ErrorPhase = 'claim' | 'handler' | 'ack' | 'nack' | 'extend' | 'push';

/**
 * Where a consumer's error happened, with the error again, typed by `phase`: checking
 * `context.phase` narrows `context.error` and `context.message`. After `phase === 'handler'`,
 * `error` is whatever the handler threw (unknown) and `message` its message; in every other phase
 * `error` is an Error (a MiniQueueError when the broker or the network failed).
 */
export type ErrorContext =
  /** The handler threw. */
  | { phase: 'handler'; message: Message; error: unknown }
  /** Settling a handled message failed. */
  | { phase: 'ack' | 'nack' | 'extend'; message: Message; error: Error }
  /** Claiming (a receive request, or the stream subscription) failed: no message yet. */
  | { phase: 'claim'; message?: undefined; error: Error }
  /** The push socket (`push: true` over HTTP) failed. */
  | { phase: 'push'; message?: undefined; error: Error };

export interface ConsumerEvents extends Record<string, unknown[]> {
  processed: [event: ProcessedEvent];
  error: [error: unknown, context: ErrorContext];
  /** A failure retrying cannot mend (see ConsumerFatalError); the consumer has stopped. */
  fatal: [error: ConsumerFatalError];
}

/** What a consumer needs from the client: the queue operations and the WebSocket endpoint. */
export interface ConsumerBroker {
  receive(queue: string, options: ReceiveOptions): Promise<Message[]>;
  ack(messageId: string): Promise<AckResult>;
  nack(messageId: string, options: NackOptions): Promise<NackResult>;
  extend(messageId: string, seconds: number): Promise<ExtendResult>;
  push: PushEndpoint;
  /** The client's stream, unless it uses HTTP only. */
  stream?: ConsumerStream;
}

/** Settling a message: over HTTP, or by frame on the stream. */
export interface Settles {
  ack(messageId: string): Promise<AckResult>;
  nack(messageId: string, options: NackOptions): Promise<NackResult>;
  extend(messageId: string, seconds: number): Promise<ExtendResult>;
}

export interface ConsumerStreamHandlers {
  deliver(message: Message): void;
  /** The subscription ended; `fallBack` says the stream cannot work here, so HTTP polling takes over. */
  ended(error: unknown, fallBack: boolean): void;
  /** The stream is down for now (a failed attempt to reopen it); deliveries resume once it is back. */
  interrupted(error: unknown): void;
}

/** A consumer's view of the client's stream; `subscribe` resolves null where streams cannot work. */
export interface ConsumerStream extends Settles {
  subscribe(queue: string, prefetch: number, handlers: ConsumerStreamHandlers): Promise<StreamSubscription | null>;
}

export type PushEndpoint = SocketEndpoint;
