import { BrokerError } from '../errors.js';
import { failed, startPushSpan, tracing } from '../tracing/spans.js';
import { traceHeadersFrom } from '../tracing/traceContext.js';
import { withTransaction, type Pool } from '../db/pool.js';
import { messageClaimGated } from '../db/queries/messageClaimGated.js';
import { ACTIVE_CONSUMER_IDLE_SECONDS } from '../broker/gatedClaims.js';
import { heldOf, putBack } from '../broker/putBack.js';
import type { MessageRow } from '../db/queries/messageRow.js';
import { pushClaimLock, pushEndpointsAll, pushInFlight, type PushEndpointSealed } from '../db/queries/pushEndpoint.js';
import type { PushConfig } from '../config.js';
import type { Settler } from '../broker/settle.js';
import { backoffDelayMs } from '../lifecycle/backoff.js';
import { Lifecycle } from '../lifecycle/lifecycle.js';
import type { Service, ServiceHealth } from '../lifecycle/service.js';
import { makesClaimable, transitionsOf, type Changes, type Transition } from '../broker/changes.js';
import { post, unsendable } from './deliver.js';
import { failureKindOf, pushFailureReason, succeeded, type DeliveryOutcome, type PushFailureKind } from './failureKind.js';
import { PushFailureLog, type PushLog } from './failureLog.js';
import { PUSH_HEALTH_WRITE_MS, PushHealth } from './pushHealth.js';
import { decryptSecret, signatureHeader } from './secrets.js';
import { type PushTargets, TargetRefused } from './targets.js';

/** Every pusher's lease holder starts with this; the in-flight bound counts them on every instance. */
export const PUSH_HOLDER_PREFIX = 'push:';
/** How often each instance looks for claimable messages on push queues (other instances' commits). */
const TICK_MS = 200;
/** How often it reads the endpoints again (set, changed, cleared or rotated on any instance). */
const ENDPOINTS_MS = 2_000;
const MAX_BACKOFF_SECONDS = 900;

export interface PushWorkerDeps {
  pool: Pool;
  settler: Settler;
  changes: Changes;
  config: PushConfig;
  instanceId: string;
  /** Where pushes may go; checked again before every delivery. */
  targets: PushTargets;
  logError: (message: string, error?: unknown) => void;
  /** Failing endpoints' lines (at most one a minute each, push/failureLog.ts). */
  log: PushLog;
  /** Each failed delivery, for `miniqueue_push_failures_total`. */
  countFailure: (queue: string, kind: PushFailureKind) => void;
}

/** The message as the endpoint receives it: the contract's Message, without lease details. */
const bodyOf = (row: MessageRow) =>
  JSON.stringify({
    message_id: row.id,
    queue: row.queue_name,
    topic: row.topic_name,
    payload: row.payload,
    headers: row.headers,
    published_at: row.published_at.toISOString(),
    retry_count: row.retry_count,
  });

/**
 * Delivers the messages of queues that have a push endpoint, from every instance. A message is
 * claimed with the normal claim and a lease of the queue's ack timeout (so two instances never
 * post the same lease, and a crashed instance's deliveries are redelivered when the lease runs
 * out); 2xx acks it, anything else (another status, a redirect, a timeout, a refused target)
 * nacks it with exponential backoff and jitter, and the queue's max_retries send it to the
 * dead-letter queue. At most max_in_flight messages per endpoint are out at once, across all
 * instances: claims for one queue take turns under an advisory lock and count what pushers hold.
 * Without MINIQUEUE_PUSH_SECRET_KEY no endpoint can exist and the worker does nothing.
 */
export class PushWorker implements Service {
  readonly name = 'push-worker';
  private readonly life = new Lifecycle(this.name);
  private readonly holder: { holder: string; consumerId: string; queues: null };
  private endpoints = new Map<string, PushEndpointSealed>();
  private readonly inFlight = new Map<string, number>();
  private readonly deliveries = new Set<Promise<void>>();
  /** Aborted when a stop begins: posts in flight end, their messages go back. */
  private aborts = new AbortController();
  private ticking = false;
  private again = false;
  private readonly healthOfEndpoints: PushHealth;
  private readonly failureLog: PushFailureLog;

  constructor(private readonly deps: PushWorkerDeps) {
    const holder = `${PUSH_HOLDER_PREFIX}${deps.instanceId}`;
    this.holder = { holder, consumerId: `push@${deps.instanceId.slice(0, 8)}`, queues: null };
    this.healthOfEndpoints = new PushHealth(deps.pool);
    this.failureLog = new PushFailureLog(deps.log);
  }

  start = () =>
    this.life.start(async () => {
      if (!this.deps.config.secretKey) return;
      this.aborts = new AbortController();
      await this.refresh();
      this.life.timers.every(ENDPOINTS_MS, () => void this.refresh());
      this.life.timers.every(TICK_MS, () => this.wake());
      this.life.timers.every(PUSH_HEALTH_WRITE_MS, () => void this.writeHealth());
      this.deps.changes.on('transitions', this.onTransitions);
      this.wake();
    });

  stop = () =>
    this.life.stop(async () => {
      this.deps.changes.off('transitions', this.onTransitions);
      this.aborts.abort();
      await Promise.allSettled([...this.deliveries]);
      await this.writeHealth();
    });

  health(): ServiceHealth {
    return this.life.health();
  }

  /** Deliveries in progress on this instance (for tests and health). */
  get active(): number {
    return this.deliveries.size;
  }

  /** This instance's own commits made messages claimable on a push queue: look at once. */
  private readonly onTransitions = (transitions: Transition[]) => {
    if (transitions.some((t) => makesClaimable(t) && this.endpoints.has(t.queue))) this.wake();
  };

  /** Reads the endpoints again now, rather than at the next ENDPOINTS_MS (tests; an endpoint just set here). */
  async refresh(): Promise<void> {
    try {
      this.endpoints = new Map((await pushEndpointsAll(this.deps.pool)).map((endpoint) => [endpoint.queue_name, endpoint]));
      this.life.report(undefined);
    } catch (error) {
      this.life.report('could not read the push endpoints');
      this.deps.logError('push endpoints could not be read', error);
    }
  }

  private async writeHealth(): Promise<void> {
    await this.healthOfEndpoints.write().catch((error: unknown) => this.deps.logError('push endpoint health could not be written', error));
  }

  /** One pass at a time; a wake-up during a pass makes another pass right after it. */
  private wake(): void {
    if (this.life.stopped) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.ticking = true;
    void this.pass().finally(() => {
      this.ticking = false;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  private async pass(): Promise<void> {
    for (const endpoint of this.endpoints.values()) {
      if (this.life.stopped) return;
      const free = endpoint.max_in_flight - (this.inFlight.get(endpoint.queue_name) ?? 0);
      if (free <= 0) continue;
      try {
        for (const row of await this.claim(endpoint, free)) this.track(endpoint, row);
      } catch (error) {
        this.deps.logError(`push claim on ${endpoint.queue_name} failed`, error);
      }
    }
  }

  private claim(endpoint: PushEndpointSealed, free: number): Promise<MessageRow[]> {
    return withTransaction(this.deps.pool, async (client) => {
      await pushClaimLock(client, endpoint.queue_name);
      const held = await pushInFlight(client, endpoint.queue_name, PUSH_HOLDER_PREFIX);
      const limit = Math.min(free, endpoint.max_in_flight - held);
      if (limit <= 0) return [];
      // The gated claim, which on a queue without a gate claims as the plain one does: a pusher is a
      // consumer like any other, so a rate limit paces it and a single active consumer queue is
      // pushed by one instance at a time (each instance's pusher is a holder of its own).
      const rows = await messageClaimGated(client, [
        { queue: endpoint.queue_name, holder: this.holder.holder, consumerId: this.holder.consumerId, limit, holdSeconds: ACTIVE_CONSUMER_IDLE_SECONDS },
      ]);
      return rows.flatMap((row) => (row.kind === 'message' ? [row] : []));
    }).then((rows) => {
      if (rows.length > 0)
        this.deps.changes.committed(
          transitionsOf(
            'CONSUMED',
            rows.map((row) => ({ queue: row.queue_name, id: row.id })),
          ),
        );
      return rows;
    });
  }

  private track(endpoint: PushEndpointSealed, row: MessageRow): void {
    const queue = endpoint.queue_name;
    this.inFlight.set(queue, (this.inFlight.get(queue) ?? 0) + 1);
    const delivery = this.deliver(endpoint, row)
      .catch((error: unknown) => this.deps.logError(`push delivery on ${queue} failed`, error))
      .finally(() => {
        this.inFlight.set(queue, (this.inFlight.get(queue) ?? 1) - 1);
        this.deliveries.delete(delivery);
        this.wake();
      });
    this.deliveries.add(delivery);
  }

  private async deliver(endpoint: PushEndpointSealed, row: MessageRow): Promise<void> {
    // Whatever keeps the request from being made is a failed attempt, nacked below like a 500:
    // left unsettled, the message would wait out its lease and hold up the queue behind it.
    // (Its cause is in the nack reason and the endpoint's rate-limited failure line.)
    const outcome = await this.post(endpoint, row).catch((error: unknown) => unsendable(error));
    if (this.aborts.signal.aborted) {
      // Stopping: the message goes straight back, its retry count untouched (it may have arrived).
      await putBack(this.deps, heldOf([row]), this.holder.holder);
      return;
    }
    this.observe(endpoint, outcome);
    try {
      if (succeeded(outcome)) {
        await this.deps.settler.ackOne(row.id, this.holder);
      } else {
        const reason = pushFailureReason(outcome);
        await this.deps.settler.nackOne(row.id, this.holder, { requeue: true, delaySeconds: this.backoffSeconds(row.retry_count), reason });
      }
    } catch (error) {
      // A 409 or 404: the lease ran out meanwhile and the message was redelivered (or purged), so
      // there is nothing to settle. Anything else leaves the lease to run out, and it comes back.
      if (!(error instanceof BrokerError && error.status < 500)) this.deps.logError(`push settle on ${endpoint.queue_name} failed`, error);
    }
  }

  /** What the endpoint's delivery says of its health: counted, logged (rate-limited) and stored. */
  private observe(endpoint: PushEndpointSealed, outcome: DeliveryOutcome): void {
    const queue = endpoint.queue_name;
    if (succeeded(outcome)) {
      this.healthOfEndpoints.succeeded(queue);
      this.failureLog.succeeded(queue, endpoint.url);
      return;
    }
    const kind = failureKindOf(outcome);
    const reason = pushFailureReason(outcome);
    this.deps.countFailure(queue, kind);
    this.healthOfEndpoints.failed(queue, reason);
    this.failureLog.failed(queue, endpoint.url, kind, reason);
  }

  private async post(endpoint: PushEndpointSealed, row: MessageRow): Promise<DeliveryOutcome> {
    let target;
    try {
      target = await this.deps.targets.check(endpoint.url);
    } catch (error) {
      if (error instanceof TargetRefused) return { failure: 'refused' };
      throw error;
    }
    const key = this.deps.config.secretKey as Buffer;
    const secrets = [endpoint.secret_sealed, endpoint.previous_secret_sealed]
      .filter((sealed): sealed is string => sealed !== null)
      .map((sealed) => decryptSecret(key, endpoint.queue_name, sealed));
    const body = bodyOf(row);
    const headers: Record<string, string> = {
      'user-agent': 'MiniQueue-Push',
      'miniqueue-signature': signatureHeader(secrets, Math.floor(Date.now() / 1000), body),
      'miniqueue-message-id': row.id,
      'miniqueue-delivery-attempt': String(row.retry_count + 1),
    };
    const timeoutMs = Math.min(endpoint.timeout_seconds, endpoint.ack_timeout_seconds) * 1000;
    // The endpoint gets the message's trace context: the push span's when tracing is on, else the producer's.
    if (!tracing.enabled) return post(target, { ...headers, ...traceHeadersFrom(row.headers) }, body, timeoutMs, this.aborts.signal);
    const span = startPushSpan({ id: row.id, queue_name: row.queue_name, trace: row.headers }, endpoint.url, headers);
    const outcome = await post(target, headers, body, timeoutMs, this.aborts.signal);
    if ('status' in outcome) span.setAttribute('http.response.status_code', outcome.status);
    if (!succeeded(outcome)) failed(span, new Error(pushFailureReason(outcome)));
    span.end();
    return outcome;
  }

  /** Exponential with jitter (the upper half of a doubling ceiling), in whole seconds for the nack. */
  private backoffSeconds(retryCount: number): number {
    const first = this.deps.config.backoffSeconds;
    if (first === 0) return 0;
    const ms = backoffDelayMs(retryCount, { firstMs: first * 1000, maxMs: MAX_BACKOFF_SECONDS * 1000 });
    return Math.min(MAX_BACKOFF_SECONDS, Math.max(1, Math.round(ms / 1000)));
  }
}
