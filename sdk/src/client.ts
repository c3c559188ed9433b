import { traced } from './tracing.js';
import { Consumer } from './consumer/consumer.js';
import type { ConsumerBroker, ConsumerOptions, MessageHandler } from './consumer/types.js';
import type { AckResult, BatchAckResult, BatchPublishResult, ExtendResult, Message, NackResult, PublishResult } from './generated/index.js';
import { retryPolicy } from './http/retryPolicy.js';
import { Transport } from './http/transport.js';
import { Monitor } from './monitor/monitor.js';
import type { MonitorOptions } from './monitor/types.js';
import type { CallOptions, MiniQueueOptions } from './options.js';
import type { SocketEndpoint } from './realtime/socket.js';
import { authResource, type AuthResource } from './resources/auth.js';
import { clientsResource, type ClientsResource } from './resources/clients.js';
import { dashboardResource, type DashboardResource } from './resources/dashboard.js';
import { historyResource, type HistoryResource } from './resources/history.js';
import { pushResource, type PushResource } from './resources/push.js';
import { deadLettersResource, type DeadLettersResource } from './resources/deadLetters.js';
import * as messages from './resources/messages.js';
import { operationsResource, type OperationsResource } from './resources/operations.js';
import { queuesResource, type QueuesResource } from './resources/queues.js';
import { topicsResource, type TopicsResource } from './resources/topics.js';
import { StreamRoute } from './stream/route.js';

/**
 * The MiniQueue client. Every operation of the broker's HTTP contract, with retries (backoff with
 * jitter, `Retry-After`), per-request timeouts, idempotent publishing and typed errors. Publishing
 * and consumers go over one shared stream unless `transport: 'http'`; `close()` releases it.
 */
export class MiniQueue {
  readonly topics: TopicsResource;
  readonly queues: QueuesResource;
  readonly clients: ClientsResource;
  /** The dead-letter queue: list, replay and delete DEAD messages. */
  readonly dlq: DeadLettersResource;
  readonly dashboard: DashboardResource;
  /** Replay from history: deliver a queue's retained acked messages again. */
  readonly history: HistoryResource;
  /** Push endpoints: the broker POSTs a queue's messages, signed (see verifyPushSignature). */
  readonly push: PushResource;
  readonly auth: AuthResource;
  /** Health, build information, metrics and the OpenAPI document. */
  readonly ops: OperationsResource;
  private readonly transport: Transport;
  private readonly stream: StreamRoute | undefined;

  constructor(options: MiniQueueOptions) {
    this.transport = new Transport(options);
    if (options.transport !== 'http') {
      this.stream = new StreamRoute({
        // One ticket request per attempt: the stream's reconnect backoff is the retry.
        endpoint: this.socketEndpoint({ retry: { attempts: 1 } }),
        endpoints: this.transport.endpoints,
        instanceId: options.instanceId,
        retry: retryPolicy(options.retry),
        warn: (message) => (options.logger ?? console).warn(message),
      });
    }
    this.topics = topicsResource(this.transport);
    this.queues = queuesResource(this.transport);
    this.clients = clientsResource(this.transport);
    this.dlq = deadLettersResource(this.transport);
    this.dashboard = dashboardResource(this.transport);
    this.history = historyResource(this.transport);
    this.push = pushResource(this.transport);
    this.auth = authResource(this.transport);
    this.ops = operationsResource(this.transport);
  }

  /** Publishes to every queue bound to the topic; a retried call is stored once (idempotency key). */
  publish(topic: string, payload: string, options: messages.PublishOptions = {}): Promise<PublishResult> {
    // Made once, so a publish resent on a new stream, or sent over HTTP after all, is stored once.
    const idempotencyKey = messages.keyOf(options.idempotencyKey);
    return traced(topic, options.headers, (headers) => {
      const overHttp = () => messages.publish(this.transport, topic, payload, { ...options, headers, idempotencyKey: idempotencyKey ?? null });
      if (!this.stream) return overHttp();
      const fields = {
        topic,
        payload,
        headers,
        delay_seconds: options.delaySeconds,
        expires_in_seconds: options.expiresInSeconds,
        priority: options.priority,
        ordering_key: options.orderingKey,
        group_key: options.groupKey,
        idempotency_key: idempotencyKey,
      };
      return this.stream.via((stream) => stream.publish(fields, options.signal, options.retry), overHttp);
    });
  }

  /** Publishes 1..500 messages at once, all or nothing; `results[i]` answers `messages[i]`. */
  publishBatch(topic: string, batch: messages.BatchMessage[], options?: CallOptions): Promise<BatchPublishResult> {
    return messages.publishBatch(this.transport, topic, batch, options);
  }

  /** Claims the oldest claimable message, or resolves null when there is none (within `waitSeconds`). */
  consume(queue: string, options?: messages.ConsumeOptions): Promise<Message | null> {
    return messages.consume(this.transport, queue, options);
  }

  /** Claims up to `maxMessages` messages; an empty array when none is claimable (within `waitSeconds`). */
  receive(queue: string, options?: messages.ReceiveOptions): Promise<Message[]> {
    return messages.receive(this.transport, queue, options);
  }

  /**
   * One message by id, whatever its status: PENDING, UNACKED, DEAD, or ACKED while retained. Needs
   * `view`, or `consume:<queue>` of its queue; a message of a queue you may not read is a
   * NotFoundError (`message_not_found`), as is an unknown id.
   */
  getMessage(messageId: string, options?: CallOptions): Promise<Message> {
    return messages.get(this.transport, messageId, options);
  }

  /** Acknowledges a claimed message (final). ConflictError once its lease was lost. */
  ack(messageId: string, options?: CallOptions): Promise<AckResult> {
    return messages.ack(this.transport, messageId, options);
  }

  /** Acknowledges up to 100 messages; those that cannot be acked are listed in `failed`. */
  ackMany(messageIds: string[], options?: CallOptions): Promise<BatchAckResult> {
    return messages.ackMany(this.transport, messageIds, options);
  }

  /** Rejects a claimed message: back to the queue (default) or, with `requeue: false`, to the DLQ. */
  nack(messageId: string, options?: messages.NackOptions): Promise<NackResult> {
    return messages.nack(this.transport, messageId, options);
  }

  /** Sets a claimed message's lease to end `seconds` from now. */
  extend(messageId: string, seconds: number, options?: CallOptions): Promise<ExtendResult> {
    return messages.extend(this.transport, messageId, seconds, options);
  }

  /** A consumer of one queue; call `start()` to run it. See ConsumerOptions. */
  consumer(queue: string, handler: MessageHandler, options?: ConsumerOptions): Consumer {
    return new Consumer(this.consumerBroker(), queue, handler, options);
  }

  /**
   * Closes the client's stream (calls still waiting on it reject with ConnectionError); a later
   * call opens a new one. Nothing to do with `transport: 'http'`. An idle stream does not keep a
   * Node process alive, but a program that is done should close it.
   */
  close(): void {
    this.stream?.close();
  }

  /**
   * The broker's live feed (needs `view`); call `start()` to open it. Watched on the client's
   * shared stream, or on `/ws/monitor` with `transport: 'http'` and where streams do not work. See Monitor.
   */
  monitor(options?: MonitorOptions): Monitor {
    // One ticket request per attempt: the monitor's reconnect backoff is the retry.
    return new Monitor(this.socketEndpoint({ retry: { attempts: 1 } }), options, this.stream?.monitorStream());
  }

  private consumerBroker(): ConsumerBroker {
    return {
      receive: (queue, options) => this.receive(queue, options),
      ack: (id) => this.ack(id),
      nack: (id, options) => this.nack(id, options),
      extend: (id, seconds) => this.extend(id, seconds),
      push: this.socketEndpoint(),
      stream: this.stream?.consumerStream({
        ack: (id) => this.ack(id),
        nack: (id, options) => this.nack(id, options),
        extend: (id, seconds) => this.extend(id, seconds),
      }),
    };
  }

  private socketEndpoint(ticketCall?: CallOptions): SocketEndpoint {
    const transport = this.transport;
    return {
      // Read at each connect: with several broker URLs, the one in use then.
      get baseUrl() {
        return transport.baseUrl;
      },
      token: () => this.transport.token(),
      ticket: async () => (await this.auth.wsTicket(ticketCall)).ticket,
    };
  }
}
