import client from 'prom-client';
import type { Queryable } from './db/pool.js';
import { statsByQueue, type QueueStatsRow } from './db/queries/stats.js';

/** Queue gauges are read from the database at most this often, however often Prometheus scrapes. */
const GAUGE_CACHE_MS = 2_000;

/**
 * The broker's Prometheus metrics. Counters count what THIS instance did (Prometheus sums
 * instances); queue gauges describe the shared database, from one grouped query per scrape.
 */
export class Metrics {
  readonly registry = new client.Registry();
  private readonly published = this.counter('miniqueue_messages_published_total', 'Messages published (one per queue copy)');
  private readonly consumed = this.counter('miniqueue_messages_consumed_total', 'Messages claimed by consumers');
  private readonly acked = this.counter('miniqueue_messages_acked_total', 'Messages acknowledged');
  private readonly dead = this.counter('miniqueue_messages_dead_total', 'Messages moved to the dead-letter queue');
  private readonly redelivered = this.counter('miniqueue_messages_redelivered_total', 'Messages returned to their queue for another try');
  private readonly publishToAck = new client.Histogram({
    name: 'miniqueue_publish_to_ack_seconds',
    help: 'Time from publication to acknowledgement',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600],
    registers: [this.registry],
  });
  readonly httpDuration = new client.Histogram({
    name: 'miniqueue_http_request_duration_seconds',
    help: 'HTTP request duration by route template, method and status',
    labelNames: ['route', 'method', 'status'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25],
    registers: [this.registry],
  });
  private gaugeRows?: { at: number; rows: Promise<QueueStatsRow[]> };

  constructor(private readonly db: Queryable) {
    client.collectDefaultMetrics({ register: this.registry });
    this.queueGauge('miniqueue_queue_depth', 'PENDING messages per queue', (row) => row.pending);
    this.queueGauge('miniqueue_queue_unacked', 'UNACKED messages per queue', (row) => row.unacked);
    this.queueGauge('miniqueue_queue_dead', 'DEAD messages per queue', (row) => row.dead);
    this.queueGauge('miniqueue_oldest_pending_age_seconds', 'Age of the oldest available PENDING message per queue', (row) => row.oldest_pending_age_seconds);
  }

  /**
   * Group commit as it happens: statements sent per kind, requests they carried (their ratio is the
   * average batch) and seconds they took (over statements: the average time to commit a batch).
   */
  watchGroupCommits(kinds: Record<string, { batches: number; requests: number; seconds: number }>): void {
    const series = (name: string, help: string, value: (stats: { batches: number; requests: number; seconds: number }) => number) =>
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
  }

  recordPublished(queues: string[]): void {
    for (const queue of queues) this.published.inc({ queue });
  }
  recordConsumed(queues: string[]): void {
    for (const queue of queues) this.consumed.inc({ queue });
  }
  /** Repeated acks (the holder had acked already) are not counted again. */
  recordAcked(rows: { queue_name: string; published_at: Date; repeated: boolean }[]): void {
    const now = Date.now();
    for (const row of rows) {
      if (row.repeated) continue;
      this.acked.inc({ queue: row.queue_name });
      this.publishToAck.observe(Math.max(0, (now - row.published_at.getTime()) / 1000));
    }
  }
  /** Rows that left UNACKED by nack or lease expiry: PENDING again, or DEAD. */
  recordReturned(rows: { queue_name: string; status: 'PENDING' | 'DEAD' }[], expired: boolean): void {
    for (const row of rows) {
      if (row.status === 'DEAD') this.dead.inc({ queue: row.queue_name });
      else if (expired) this.redelivered.inc({ queue: row.queue_name });
    }
  }

  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  private counter(name: string, help: string) {
    return new client.Counter({ name, help, labelNames: ['queue'], registers: [this.registry] });
  }

  private queueGauge(name: string, help: string, value: (row: QueueStatsRow) => number) {
    const metrics = this;
    new client.Gauge({
      name,
      help,
      labelNames: ['queue'],
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const row of await metrics.queueRows()) this.set({ queue: row.queue }, value(row));
      },
    });
  }

  /** One grouped query serves all four gauges of a scrape (and of scrapes close together). */
  private queueRows(): Promise<QueueStatsRow[]> {
    const now = Date.now();
    if (!this.gaugeRows || now - this.gaugeRows.at > GAUGE_CACHE_MS) {
      const rows = statsByQueue(this.db);
      rows.catch(() => (this.gaugeRows = undefined));
      this.gaugeRows = { at: now, rows };
    }
    return this.gaugeRows.rows;
  }
}
