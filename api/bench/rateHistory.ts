import type { Queryable } from '../src/db/pool.js';

export interface RateHistoryShape {
  queues: number;
  /** Queues per topic (queue i is bound to topic floor(i / queuesPerTopic)). */
  queuesPerTopic: number;
  hours: number;
}

/** What 50 busy queues write in a day: 17,280 buckets of 5 s each, every one counted and sampled. */
export const BUSY_DAY: RateHistoryShape = { queues: 50, queuesPerTopic: 5, hours: 24 };

/**
 * Writes `hours` of rate history, ending now, for `queues` queues named hq00, hq01, … (topics
 * ht00, …), as the rate recorder would have: every 5-second bucket of every queue counted, every
 * bucket sampled (rate_sample) with a depth for every queue, topic publishes per bucket. Straight
 * through SQL (a day for 50 queues, 864,000 rows, takes a few seconds), then rolled up into the
 * per-minute totals where the schema has them. Topics and queues are created too.
 */
export async function seedRateHistory(db: Queryable, shape: RateHistoryShape = BUSY_DAY): Promise<{ rows: number }> {
  const topics = Math.ceil(shape.queues / shape.queuesPerTopic);
  const pad = (prefix: string, i: number) => `${prefix}${String(i).padStart(2, '0')}`;
  const names = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => pad(prefix, i));
  await db.query(`INSERT INTO topic (name) SELECT unnest($1::text[]) ON CONFLICT DO NOTHING`, [names('ht', topics)]);
  const queueTopics = Array.from({ length: shape.queues }, (_, i) => pad('ht', Math.floor(i / shape.queuesPerTopic)));
  await db.query(
    `WITH q AS (
       INSERT INTO queue (name, topic_name, ack_timeout_seconds, max_retries)
       SELECT q, t, 30, 5 FROM unnest($1::text[], $2::text[]) AS x (q, t) ON CONFLICT DO NOTHING RETURNING name)
     INSERT INTO queue_counter (queue_name, shard) SELECT q.name, s FROM q, generate_series(0, 15) AS s`,
    [names('hq', shape.queues), queueTopics],
  );
  const buckets = `generate_series(date_bin('5 seconds', now(), 'epoch') - make_interval(hours => $1),
                                   date_bin('5 seconds', now(), 'epoch') - interval '5 seconds', interval '5 seconds') AS b`;
  const { rowCount } = await db.query(
    `INSERT INTO queue_rate (queue_name, bucket, enqueued, delivered, acked, nacked, dead, redelivered, replayed, depth)
     SELECT q, b, 40 + i % 7, 40 + i % 5, 39 + i % 5, i % 2, (i % 50 = 0)::int, (i % 9 = 0)::int, 0, 100 + i % 400
       FROM unnest($2::text[]) WITH ORDINALITY AS x (q, i), ${buckets}`,
    [shape.hours, names('hq', shape.queues)],
  );
  await db.query(
    `INSERT INTO topic_rate (topic_name, bucket, published)
     SELECT t, b, 40 * $3 FROM unnest($2::text[]) AS t, ${buckets}`,
    [shape.hours, names('ht', topics), shape.queuesPerTopic],
  );
  await db.query(`INSERT INTO rate_sample (bucket) SELECT b FROM ${buckets} ON CONFLICT DO NOTHING`, [shape.hours]);
  const rollup = await db.query(`SELECT to_regproc('miniqueue_rates_rollup') IS NOT NULL AS present`);
  if (rollup.rows[0].present) {
    await db.query(`SELECT miniqueue_rates_rollup(now() - make_interval(hours => $1 + 1), now())`, [shape.hours]);
  }
  await db.query('ANALYZE queue_rate; ANALYZE topic_rate; ANALYZE rate_sample');
  return { rows: rowCount ?? 0 };
}
