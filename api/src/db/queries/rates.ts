import type { Queryable } from '../pool.js';
import type { RateSnapshot } from '../../stats/rateCounter.js';
import { oldestPendingAge } from './stats.js';

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Adds one instance's counts to the shared buckets, in one statement per bucket written, whatever
 * the traffic: queue counts and topic publishes are added to what other instances wrote (an
 * additive upsert), pollers are marked seen. With `sampleBucket`, the first instance to claim that
 * bucket in rate_sample also writes every queue's depth for it, from the queue counters (16 rows per
 * queue whatever the backlog, so every bucket is sampled; counting the pending messages cost 195 ms
 * per million) and, of each queue with messages pending, its oldest pending age (the day's average
 * of which the dashboard compares with, as an alert rule does); the others skip it, as the claim
 * returns no row. Every count is added to its minute too (queue_rate_minute, topic_rate_minute:
 * what long windows read), every age to its minute and its hour (queue_oldest_age_hour). Rows are
 * written in key order, table by table, so two instances writing the same buckets never deadlock.
 */
export async function ratesFlush(db: Queryable, snapshot: RateSnapshot, sampleBucket: number | null): Promise<{ sampled: boolean }> {
  const queues = snapshot.queues.map((row) => ({ ...row, bucket: iso(row.bucket) }));
  const topics = snapshot.topics.map((row) => ({ ...row, bucket: iso(row.bucket) }));
  const { rows } = await db.query<{ sampled: boolean }>({
    name: 'rates_flush',
    text: `WITH c AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS c (queue text, bucket timestamptz, enqueued int, delivered int,
                                                         acked int, nacked int, dead int, redelivered int, replayed int)),
     sample AS (
       INSERT INTO rate_sample (bucket) SELECT $4::timestamptz WHERE $4 IS NOT NULL
       ON CONFLICT DO NOTHING RETURNING bucket),
     -- From the queue counters (migration 0013): 16 rows per queue, however many are pending.
     pending AS (SELECT s.bucket, k.queue_name, sum(k.pending)::int AS depth FROM sample s, queue_counter k
                  GROUP BY 1, 2 HAVING sum(k.pending) > 0),
     -- With each depth, the oldest pending age (migration 0020), one probe of the claim index per
     -- queue with messages pending: 0.014 ms each, 0.7 ms for 50 queues of 2,000 pending, and 0.4 ms
     -- to add them to their hours (EXPLAIN ANALYZE, bench/attentionExplain.ts).
     d AS (SELECT p.*, ${oldestPendingAge('p.queue_name')} AS oldest_age FROM pending p),
     counted AS (
       SELECT coalesce(c.queue, d.queue_name) AS queue_name, coalesce(c.bucket, d.bucket) AS bucket, coalesce(c.enqueued, 0) AS enqueued,
              coalesce(c.delivered, 0) AS delivered, coalesce(c.acked, 0) AS acked, coalesce(c.nacked, 0) AS nacked,
              coalesce(c.dead, 0) AS dead, coalesce(c.redelivered, 0) AS redelivered, coalesce(c.replayed, 0) AS replayed, d.depth,
              coalesce(d.oldest_age, 0) AS oldest_age
         FROM c FULL JOIN d ON d.queue_name = c.queue AND d.bucket = c.bucket),
     queues AS (
       INSERT INTO queue_rate (queue_name, bucket, enqueued, delivered, acked, nacked, dead, redelivered, replayed, depth)
       SELECT queue_name, bucket, enqueued, delivered, acked, nacked, dead, redelivered, replayed, depth FROM counted ORDER BY 1, 2
       ON CONFLICT (queue_name, bucket) DO UPDATE SET
         enqueued = queue_rate.enqueued + EXCLUDED.enqueued, delivered = queue_rate.delivered + EXCLUDED.delivered,
         acked = queue_rate.acked + EXCLUDED.acked, nacked = queue_rate.nacked + EXCLUDED.nacked,
         dead = queue_rate.dead + EXCLUDED.dead, redelivered = queue_rate.redelivered + EXCLUDED.redelivered,
         replayed = queue_rate.replayed + EXCLUDED.replayed, depth = coalesce(EXCLUDED.depth, queue_rate.depth)),
     -- The same counts added to their minutes; a depth replaces the minute's only if from a later
     -- sample, an oldest age adds to the minute's (each bucket is sampled once).
     queue_minutes AS (
       INSERT INTO queue_rate_minute (queue_name, minute, enqueued, delivered, acked, nacked, dead, redelivered, replayed, depth, depth_bucket,
                                      oldest_age_total)
       SELECT queue_name, date_bin('1 minute', bucket, 'epoch'), sum(enqueued), sum(delivered), sum(acked), sum(nacked), sum(dead),
              sum(redelivered), sum(replayed), (array_agg(depth ORDER BY bucket DESC) FILTER (WHERE depth IS NOT NULL))[1],
              max(bucket) FILTER (WHERE depth IS NOT NULL), sum(oldest_age)
         FROM counted GROUP BY 1, 2 ORDER BY 1, 2
       ON CONFLICT (queue_name, minute) DO UPDATE SET
         enqueued = queue_rate_minute.enqueued + EXCLUDED.enqueued, delivered = queue_rate_minute.delivered + EXCLUDED.delivered,
         acked = queue_rate_minute.acked + EXCLUDED.acked, nacked = queue_rate_minute.nacked + EXCLUDED.nacked,
         dead = queue_rate_minute.dead + EXCLUDED.dead, redelivered = queue_rate_minute.redelivered + EXCLUDED.redelivered,
         replayed = queue_rate_minute.replayed + EXCLUDED.replayed,
         depth = CASE WHEN EXCLUDED.depth_bucket >= coalesce(queue_rate_minute.depth_bucket, '-infinity')
                      THEN EXCLUDED.depth ELSE queue_rate_minute.depth END,
         depth_bucket = greatest(EXCLUDED.depth_bucket, queue_rate_minute.depth_bucket),
         oldest_age_total = queue_rate_minute.oldest_age_total + EXCLUDED.oldest_age_total),
     -- And to its hour, so that a day's average reads 24 rows of a queue, not 1,440.
     ages_by_hour AS (
       INSERT INTO queue_oldest_age_hour (queue_name, hour, total)
       SELECT queue_name, date_bin('1 hour', bucket, 'epoch'), sum(oldest_age) FROM d GROUP BY 1, 2 ORDER BY 1, 2
       ON CONFLICT (queue_name, hour) DO UPDATE SET total = queue_oldest_age_hour.total + EXCLUDED.total),
     topic_counts AS (SELECT * FROM jsonb_to_recordset($2::jsonb) AS t (topic text, bucket timestamptz, published int)),
     topics AS (
       INSERT INTO topic_rate (topic_name, bucket, published)
       SELECT topic, bucket, published FROM topic_counts ORDER BY 1, 2
       ON CONFLICT (topic_name, bucket) DO UPDATE SET published = topic_rate.published + EXCLUDED.published),
     topic_minutes AS (
       INSERT INTO topic_rate_minute (topic_name, minute, published)
       SELECT topic, date_bin('1 minute', bucket, 'epoch'), sum(published) FROM topic_counts GROUP BY 1, 2 ORDER BY 1, 2
       ON CONFLICT (topic_name, minute) DO UPDATE SET published = topic_rate_minute.published + EXCLUDED.published),
     pollers AS (
       INSERT INTO queue_poller (queue_name, consumer_id, seen_at)
       SELECT queue, consumer, now() FROM jsonb_to_recordset($3::jsonb) AS p (queue text, consumer text)
        ORDER BY 1, 2
       ON CONFLICT (queue_name, consumer_id) DO UPDATE SET seen_at = EXCLUDED.seen_at)
     SELECT EXISTS (SELECT 1 FROM sample) AS sampled`,
    values: [JSON.stringify(queues), JSON.stringify(topics), JSON.stringify(snapshot.pollers), sampleBucket === null ? null : iso(sampleBucket)],
  });
  return rows[0];
}

/** Deletes buckets, minutes, hours of oldest ages and samples older than `hours`, and pollers not seen for an hour, in bounded batches. */
export async function ratesPrune(db: Queryable, hours: number, limit: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `WITH cut AS (SELECT now() - make_interval(hours => $1) AS before),
     q AS (DELETE FROM queue_rate WHERE (queue_name, bucket) IN (
             SELECT queue_name, bucket FROM queue_rate, cut WHERE bucket < cut.before LIMIT $2) RETURNING 1),
     t AS (DELETE FROM topic_rate WHERE (topic_name, bucket) IN (
             SELECT topic_name, bucket FROM topic_rate, cut WHERE bucket < cut.before LIMIT $2) RETURNING 1),
     qm AS (DELETE FROM queue_rate_minute WHERE (queue_name, minute) IN (
             SELECT queue_name, minute FROM queue_rate_minute, cut WHERE minute < cut.before LIMIT $2) RETURNING 1),
     tm AS (DELETE FROM topic_rate_minute WHERE (topic_name, minute) IN (
             SELECT topic_name, minute FROM topic_rate_minute, cut WHERE minute < cut.before LIMIT $2) RETURNING 1),
     ah AS (DELETE FROM queue_oldest_age_hour WHERE (queue_name, hour) IN (
             SELECT queue_name, hour FROM queue_oldest_age_hour, cut WHERE hour < cut.before - interval '1 hour' LIMIT $2) RETURNING 1),
     s AS (DELETE FROM rate_sample USING cut WHERE bucket < cut.before RETURNING 1),
     p AS (DELETE FROM queue_poller WHERE seen_at < now() - interval '1 hour' RETURNING 1)
     SELECT ((SELECT count(*) FROM q) + (SELECT count(*) FROM t) + (SELECT count(*) FROM qm) + (SELECT count(*) FROM tm) + (SELECT count(*) FROM ah))::int AS n`,
    [hours, limit],
  );
  return rows[0].n;
}

export interface RateBucketRow {
  at: Date;
  published: number;
  enqueued: number;
  delivered: number;
  acked: number;
  nacked: number;
  dead: number;
  redelivered: number;
  replayed: number;
  depth: number | null;
}

/** Where a series is read from: the 5-second buckets, or their per-minute totals (migration 0012). */
export type RateSource = 'buckets' | 'minutes';

const SOURCES = {
  buckets: { queues: 'queue_rate', topics: 'topic_rate', at: 'bucket', sampled: (r: string, s: string) => `${r}.bucket = ${s}` },
  minutes: {
    queues: 'queue_rate_minute',
    topics: 'topic_rate_minute',
    at: 'minute',
    sampled: (r: string, s: string) => `${r}.minute = date_bin('1 minute', ${s}, 'epoch') AND ${r}.depth_bucket = ${s}`,
  },
};

/**
 * The series statement over one source, in one grouped scan of the window's rows: each row adds to
 * its slot's counts and, when it holds the queue's depth at the slot's latest sample, to the slot's
 * depth (summed over queues; a queue without a row for that sample had none pending, and a slot
 * without a sample has no depth). The look-up per sample this replaces read 17,280 samples × 50
 * rows for a day of 50 queues: 1.3 s (bench/ratesExplain.ts has the figures of both).
 */
const SERIES = (source: RateSource) => {
  const { queues, topics, at, sampled } = SOURCES[source];
  // Bounds written on each table itself, of the parameters only: the planner then reads every
  // table along its time index over the window (through a CTE's column it scanned whole tables).
  const step = 'make_interval(secs => $3)';
  const from = `date_bin(${step}, $2::timestamptz, 'epoch')`;
  return `WITH slots AS (SELECT generate_series(${from}, date_bin(${step}, now(), 'epoch'), ${step}) AS at),
     latest AS (
       SELECT DISTINCT ON (1) date_bin(${step}, s.bucket, 'epoch') AS at, s.bucket
         FROM rate_sample s
        WHERE s.bucket >= ${from}
        ORDER BY 1, s.bucket DESC),
     counts AS (
       SELECT date_bin(${step}, r.${at}, 'epoch') AS at, sum(r.enqueued) AS enqueued, sum(r.delivered) AS delivered,
              sum(r.acked) AS acked, sum(r.nacked) AS nacked, sum(r.dead) AS dead,
              sum(r.redelivered) AS redelivered, sum(r.replayed) AS replayed,
              sum(r.depth) FILTER (WHERE ${sampled('r', 'l.bucket')}) AS depth
         FROM ${queues} r LEFT JOIN latest l ON l.at = date_bin(${step}, r.${at}, 'epoch')
        WHERE r.${at} >= ${from} AND ($1::text IS NULL OR r.queue_name = $1)
        GROUP BY 1),
     publishes AS (
       SELECT date_bin(${step}, t.${at}, 'epoch') AS at, sum(t.published) AS published
         FROM ${topics} t
        WHERE t.${at} >= ${from} AND ($1::text IS NULL OR t.topic_name = (SELECT topic_name FROM queue WHERE name = $1))
        GROUP BY 1)
     SELECT slots.at, coalesce(p.published, 0)::int AS published, coalesce(c.enqueued, 0)::int AS enqueued,
            coalesce(c.delivered, 0)::int AS delivered, coalesce(c.acked, 0)::int AS acked, coalesce(c.nacked, 0)::int AS nacked,
            coalesce(c.dead, 0)::int AS dead, coalesce(c.redelivered, 0)::int AS redelivered,
            coalesce(c.replayed, 0)::int AS replayed, CASE WHEN l.bucket IS NOT NULL THEN coalesce(c.depth, 0)::int END AS depth
       FROM slots LEFT JOIN counts c USING (at) LEFT JOIN publishes p USING (at) LEFT JOIN latest l USING (at)
      ORDER BY slots.at`;
};

const SERIES_STATEMENTS = {
  buckets: { name: 'rates_series_buckets', text: SERIES('buckets') },
  minutes: { name: 'rates_series_minutes', text: SERIES('minutes') },
};

/**
 * Dense buckets of `resolutionSeconds` from the one holding `fromMs` to the current one: of one
 * queue (`published` then counts publishes to its topic) or, with `queue` null, summed over all.
 * From `minutes` the resolution must be a multiple of 60. Reads the source's time index over the
 * window only: a day of 50 queues from minutes is 72,000 rows (bench/ratesExplain.ts for the cost).
 */
export async function ratesSeries(
  db: Queryable,
  query: { queue: string | null; fromMs: number; resolutionSeconds: number; source: RateSource },
): Promise<RateBucketRow[]> {
  const { rows } = await db.query<RateBucketRow>({
    ...SERIES_STATEMENTS[query.source],
    values: [query.queue, new Date(query.fromMs).toISOString(), query.resolutionSeconds],
  });
  return rows;
}

export interface QueueActivityRow {
  queue: string;
  enqueued_per_second: number;
  delivered_per_second: number;
  acked_per_second: number;
  enqueued_last_5_minutes: number;
  delivered_last_5_minutes: number;
  acked_last_5_minutes: number;
  dead_last_10_minutes: number;
  acked_last_10_minutes: number;
  oldest_pending_age_day_average_seconds: number | null;
  websocket_consumers: number;
  pollers: number;
  depth_history: (number | null)[];
}

/**
 * Per queue: rates over the last minute of whole buckets (every instance); the counts the alert
 * rules of prometheus/alerts.yml read, over their windows (5 minutes of whole buckets; 10 minutes,
 * the current bucket included); its average oldest pending age over the last day (or since it was
 * made, as Prometheus averages a series only while it exists; null with no sample); consumer
 * sockets open anywhere, consumers seen claiming in the last minute, and the depth at the latest
 * sample of each minute of the last hour (null: no sample that minute). Primary-key reads per
 * queue: 12, 60 and 120 buckets, and for the average at most 60 minutes and 24 hours (0.1 ms a
 * queue, where a day of 1,440 minutes took 1.4 ms; bench/attentionExplain.ts).
 */
export async function queueActivity(db: Queryable, currentBucketMs: number): Promise<QueueActivityRow[]> {
  const { rows } = await db.query<QueueActivityRow>(
    `WITH now_bucket AS (SELECT $1::timestamptz AS b),
     minutes AS (SELECT generate_series(date_trunc('minute', now()) - interval '59 minutes', date_trunc('minute', now()), interval '1 minute') AS minute),
     last_sample AS (SELECT date_trunc('minute', bucket) AS minute, max(bucket) AS bucket FROM rate_sample
                      WHERE bucket >= date_trunc('minute', now()) - interval '59 minutes' GROUP BY 1),
     per_minute AS (SELECT mi.minute, ls.bucket FROM minutes mi LEFT JOIN last_sample ls USING (minute)),
     -- The day of MiniQueueOldestPendingTooOld's avg_over_time(...[1d]), in whole minutes: its first
     -- hour read from the minutes, the others from the hours (migration 0020).
     day AS (SELECT d.since, date_bin('1 hour', d.since, 'epoch') + interval '1 hour' AS hours_from,
                    (SELECT count(*) FROM rate_sample s WHERE s.bucket >= d.since) AS samples
               FROM (SELECT date_bin('1 minute', now() - interval '1 day', 'epoch') AS since) d)
     SELECT q.name AS queue,
            coalesce(r.enqueued, 0) / 60.0 AS enqueued_per_second,
            coalesce(r.delivered, 0) / 60.0 AS delivered_per_second,
            coalesce(r.acked, 0) / 60.0 AS acked_per_second,
            coalesce(f.enqueued, 0)::int AS enqueued_last_5_minutes,
            coalesce(f.delivered, 0)::int AS delivered_last_5_minutes,
            coalesce(f.acked, 0)::int AS acked_last_5_minutes,
            coalesce(t.dead, 0)::int AS dead_last_10_minutes,
            coalesce(t.acked, 0)::int AS acked_last_10_minutes,
            coalesce(a.total, 0)::float / nullif(a.samples, 0) AS oldest_pending_age_day_average_seconds,
            (SELECT count(*) FROM ws_consumer w WHERE w.queue_name = q.name)::int AS websocket_consumers,
            (SELECT count(*) FROM queue_poller p WHERE p.queue_name = q.name AND p.seen_at > now() - interval '1 minute')::int AS pollers,
            ARRAY(SELECT CASE WHEN pm.bucket IS NULL THEN NULL ELSE coalesce(k.depth, 0) END
                    FROM per_minute pm LEFT JOIN queue_rate k ON k.queue_name = q.name AND k.bucket = pm.bucket
                   ORDER BY pm.minute) AS depth_history
       FROM queue q CROSS JOIN now_bucket nb CROSS JOIN day
       LEFT JOIN LATERAL (
         SELECT sum(x.enqueued) AS enqueued, sum(x.delivered) AS delivered, sum(x.acked) AS acked FROM queue_rate x
          WHERE x.queue_name = q.name AND x.bucket >= nb.b - interval '60 seconds' AND x.bucket < nb.b) r ON true
       LEFT JOIN LATERAL (
         SELECT sum(x.enqueued) AS enqueued, sum(x.delivered) AS delivered, sum(x.acked) AS acked FROM queue_rate x
          WHERE x.queue_name = q.name AND x.bucket >= nb.b - interval '5 minutes' AND x.bucket < nb.b) f ON true
       LEFT JOIN LATERAL (
         SELECT sum(x.dead) AS dead, sum(x.acked) AS acked FROM queue_rate x
          WHERE x.queue_name = q.name AND x.bucket >= nb.b - interval '10 minutes') t ON true
       LEFT JOIN LATERAL (
         SELECT (SELECT coalesce(sum(m.oldest_age_total), 0) FROM queue_rate_minute m
                  WHERE m.queue_name = q.name AND m.minute >= day.since AND m.minute < day.hours_from)
                + (SELECT coalesce(sum(h.total), 0) FROM queue_oldest_age_hour h
                    WHERE h.queue_name = q.name AND h.hour >= day.hours_from) AS total,
                -- A queue made within the day counts the samples since then only (few rows: it is young).
                CASE WHEN q.created_at <= day.since THEN day.samples
                     ELSE (SELECT count(*) FROM rate_sample s WHERE s.bucket >= q.created_at) END AS samples) a ON true
      ORDER BY q.name`,
    [new Date(currentBucketMs).toISOString()],
  );
  return rows.map((row) => ({
    ...row,
    enqueued_per_second: Number(row.enqueued_per_second),
    delivered_per_second: Number(row.delivered_per_second),
    acked_per_second: Number(row.acked_per_second),
    oldest_pending_age_day_average_seconds: row.oldest_pending_age_day_average_seconds === null ? null : Number(row.oldest_pending_age_day_average_seconds),
  }));
}
