import client from 'prom-client';
import type { Queryable } from './db/pool.js';
import { consumersByQueue, statsByQueue, type QueueStatsRow } from './db/queries/stats.js';
import type { Transition, TransitionEvent } from './broker/changes.js';
import type { GroupCommitStats } from './broker/groupCommit.js';
import type { PushFailureKind } from './push/failureKind.js';

/** Queue gauges are read from the database at most this often, however often Prometheus scrapes. */
const GAUGE_CACHE_MS = 2_000;

/** What a scrape knows of each queue: its counts, and how many consumers asked it lately. */
type QueueGaugeRow = QueueStatsRow & { consumers: number };

/**
 * The most queues that get a publish-to-ack histogram of their own (18 series each); the
 * latencies of any further queue are observed under `queue="_other"`, so that a broker with very
 * many queues does not flood Prometheus. Queues take the places in the order they are first acked.
 */
export const LATENCY_QUEUE_LABELS = 200;
export const OTHER_QUEUES = '_other';

/**
 * The broker's Prometheus metrics. Counters count what THIS instance committed (Prometheus sums
 * instances), from the change stream (count()); queue gauges describe the shared database, from
 * one grouped query per scrape.
 */
export class Metrics {
  readonly registry = new client.Registry();
  private readonly published = this.counter('miniqueue_messages_published_total', 'Queue copies stored (a publish to a topic with 3 queues counts 3)');
  private readonly topicPublishes = this.zeroFromStart(
    'miniqueue_topic_publishes_total',
    'Publishes to a topic (one per message published, whatever the number of queues it went to)',
    'topic',
  );
  private readonly consumed = this.counter('miniqueue_messages_consumed_total', 'Messages claimed by consumers');
  private readonly acked = this.counter('miniqueue_messages_acked_total', 'Messages acknowledged');
  private readonly dead = this.counter('miniqueue_messages_dead_total', 'Messages moved to the dead-letter queue');
  private readonly redelivered = this.counter('miniqueue_messages_redelivered_total', 'Messages returned to their queue for another try');
  // A counter only goes up (a fall reads as a restart to rate()): a put-back is counted here rather
  // than taken from consumed, and consumed - released is what reached consumers for good.
  private readonly released = this.counter(
    'miniqueue_messages_released_total',
    'Claimed messages given back unsettled, retry count unchanged (their consumer left before it could use them)',
  );
  private readonly refusedCopies = this.counter(
    'miniqueue_copies_refused_total',
    "Copies of a publish that a full queue with overflow reject_copy refused (its topic's other queues got theirs)",
  );
  private readonly publishToAck = new client.Histogram({
    name: 'miniqueue_publish_to_ack_seconds',
    help: `Time from publication to acknowledgement, per queue (beyond ${LATENCY_QUEUE_LABELS} queues under queue="${OTHER_QUEUES}")`,
    labelNames: ['queue'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600],
    registers: [this.registry],
  });
  private readonly latencyLabels = new Set<string>();
  private readonly pushFailures = new client.Counter({
    name: 'miniqueue_push_failures_total',
    help: 'Push deliveries that failed, by queue and reason (timeout, connection, http_3xx, http_4xx, http_5xx, http_other, unsendable, refused_target)',
    labelNames: ['queue', 'reason'],
    registers: [this.registry],
  });
  readonly httpDuration = new client.Histogram({
    name: 'miniqueue_http_request_duration_seconds',
    help: 'HTTP request duration by route template, method and status',
    labelNames: ['route', 'method', 'status'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25],
    registers: [this.registry],
  });
  private gaugeRows?: { at: number; rows: Promise<QueueGaugeRow[]> };
  /** Which counter each transition moves; the others (nack with requeue, replay, unblock) count nowhere. */
  private readonly counterOf: Partial<Record<TransitionEvent, client.Counter>> = {
    PUBLISHED: this.published,
    CONSUMED: this.consumed,
    ACKED: this.acked,
    NACKED_DEAD: this.dead,
    EXPIRED_DEAD: this.dead,
    TTL_DEAD: this.dead,
    REDELIVERED: this.redelivered,
    RELEASED: this.released,
  };

  constructor(private readonly db: Queryable) {
    client.collectDefaultMetrics({ register: this.registry });
    this.queueGauge('miniqueue_queue_depth', 'PENDING messages per queue', (row) => row.pending);
    this.queueGauge('miniqueue_queue_unacked', 'UNACKED messages per queue', (row) => row.unacked);
    this.queueGauge('miniqueue_queue_dead', 'DEAD messages per queue', (row) => row.dead);
    this.queueGauge('miniqueue_oldest_pending_age_seconds', 'Age of the oldest available PENDING message per queue', (row) => row.oldest_pending_age_seconds);
    this.queueGauge('miniqueue_queue_consumers', 'Consumers seen asking the queue for messages in the last minute (any instance)', (row) => row.consumers);
    this.queueGauge(
      'miniqueue_push_consecutive_failures',
      "Deliveries to the queue's push endpoint that failed in a row, on every instance (only queues with an endpoint)",
      (row) => row.push_consecutive_failures,
    );
  }

  /**
   * `miniqueue_database_up`: whether this instance reaches its database and a commit there is
   * confirmed in time (1) or not (0), asked at each scrape on a connection of its own (db/health.ts). While it is 0 the queue series are left
   * out of the scrape rather than failing it: Prometheus still hears from the instance, and the
   * alert says what is wrong (the database), not that the instance is gone.
   */
  watchDatabase(isUp: () => Promise<boolean>): void {
    new client.Gauge({
      name: 'miniqueue_database_up',
      help: 'Whether this instance reaches its PostgreSQL database and it confirms commits in time (1) or not (0)',
      registers: [this.registry],
      async collect() {
        this.set((await isUp().catch(() => false)) ? 1 : 0);
      },
    });
  }

  /** A push delivery of this instance failed (the reason is one of PUSH_FAILURE_KINDS). */
  countPushFailure(queue: string, reason: PushFailureKind): void {
    this.pushFailures.inc({ queue, reason });
  }

  /** A publish to `topic` committed on this instance (`count` messages, each stored once per queue). */
  countTopicPublishes(topic: string, count: number): void {
    this.topicPublishes.inc({ topic }, count);
  }

  /** A full reject_copy queue refused `count` copies in a publish this instance committed. */
  countRefusedCopies(queue: string, count: number): void {
    this.refusedCopies.inc({ queue }, count);
  }

  /**
   * Group commit as it happens: statements sent per kind, requests they carried (their ratio is the
   * average batch) and seconds they took (over statements: the average time to commit a batch).
   */
  watchGroupCommits(kinds: Record<string, GroupCommitStats>): void {
    const series = (name: string, help: string, value: (stats: GroupCommitStats) => number) =>
      new client.Counter({
        name,
        help,
        labelNames: ['kind'],
        registers: [this.registry],
        collect() {
          this.reset();
          for (const [kind, stats] of Object.entries(kinds)) this.inc({ kind }, value(stats));
        },
      });
    series('miniqueue_group_commit_statements_total', 'Statements sent by group commit, per kind of request', (s) => s.batches);
    series('miniqueue_group_commit_requests_total', 'Requests carried by those statements', (s) => s.requests);
    series('miniqueue_group_commit_seconds_total', 'Time those statements took, from send to answer', (s) => s.seconds);
    series('miniqueue_group_commit_refused_total', 'Requests refused with 503 overloaded: too many were waiting for the database', (s) => s.refused);
  }

  /**
   * Counts what this instance's commits changed, from the broker's change stream: every path that
   * moves a message (HTTP, streams, the push worker, the lease sweeper, replays) counts alike.
   */
  count(transitions: Transition[]): void {
    const now = Date.now();
    for (const transition of transitions) {
      const counter = this.counterOf[transition.event];
      if (counter) counter.inc({ queue: transition.queue }, transition.ids.length);
      // Routed dead letters: publishes to their topic not made by the Publisher (which counts its own).
      if (transition.topic !== undefined && transition.publishes) this.topicPublishes.inc({ topic: transition.topic }, transition.publishes);
      if (!transition.publishedAt?.length) continue;
      const queue = this.latencyLabel(transition.queue);
      for (const publishedAt of transition.publishedAt) this.publishToAck.observe({ queue }, Math.max(0, (now - publishedAt.getTime()) / 1000));
    }
  }

  private latencyLabel(queue: string): string {
    if (this.latencyLabels.has(queue)) return queue;
    if (this.latencyLabels.size >= LATENCY_QUEUE_LABELS) return OTHER_QUEUES;
    this.latencyLabels.add(queue);
    return queue;
  }

  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  /**
   * A per-queue counter that shows every queue from the first scrape on, at 0 until something
   * happens there: `increase()` then sees a queue's first dead letter, which it misses when the
   * series only appears with it.
   */
  private counter(name: string, help: string) {
    return this.zeroFromStart(name, help, 'queue');
  }

  /** A counter by queue or by topic, every one of which (of a topic: with a queue) is there from the first scrape. */
  private zeroFromStart(name: string, help: string, label: 'queue' | 'topic') {
    // prom-client calls collect() with the metric as `this`.
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const metrics = this;
    return new client.Counter({
      name,
      help,
      labelNames: [label],
      registers: [this.registry],
      async collect() {
        for (const row of await metrics.queueRowsOrNone()) this.inc({ [label]: row[label] }, 0);
      },
    });
  }

  /** A gauge per queue; a queue whose value is null (a push gauge of a queue without an endpoint) has no series. */
  private queueGauge(name: string, help: string, value: (row: QueueGaugeRow) => number | null) {
    // prom-client calls collect() with the metric as `this`.
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const metrics = this;
    new client.Gauge({
      name,
      help,
      labelNames: ['queue'],
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const row of await metrics.queueRowsOrNone()) {
          const sampled = value(row);
          if (sampled !== null) this.set({ queue: row.queue }, sampled);
        }
      },
    });
  }

  /** The queue rows, or none when the database does not answer (see watchDatabase). */
  private async queueRowsOrNone(): Promise<QueueGaugeRow[]> {
    return this.queueRows().catch(() => []);
  }

  /** Two grouped queries serve every queue gauge and counter of a scrape (and of scrapes close together). */
  private queueRows(): Promise<QueueGaugeRow[]> {
    const now = Date.now();
    if (!this.gaugeRows || now - this.gaugeRows.at > GAUGE_CACHE_MS) {
      const rows = Promise.all([statsByQueue(this.db), consumersByQueue(this.db)]).then(([stats, consumers]) =>
        stats.map((row) => ({ ...row, consumers: consumers.get(row.queue) ?? 0 })),
      );
      rows.catch(() => (this.gaugeRows = undefined));
      this.gaugeRows = { at: now, rows };
    }
    return this.gaugeRows.rows;
  }
}
