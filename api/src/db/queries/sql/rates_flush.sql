-- rates_flush: the statement as the broker prepares it (api/src/db/queries/).
-- Written by `npm run sql:render -w @miniqueue/api`; a test fails when it is stale. Do not edit.
WITH c AS (
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
     d AS (SELECT p.*, coalesce((SELECT floor(extract(epoch FROM now() - m.published_at)) FROM message m
                       WHERE m.queue_name = p.queue_name AND m.status = 'PENDING' AND m.available_at <= now() AND (m.expires_at IS NULL OR m.expires_at > now())
                       ORDER BY m.available_at, m.seq LIMIT 1), 0)::int AS oldest_age FROM pending p),
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
     SELECT EXISTS (SELECT 1 FROM sample) AS sampled
