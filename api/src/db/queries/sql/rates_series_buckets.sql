-- rates_series_buckets: the statement as the broker prepares it (api/src/db/queries/).
-- Written by `npm run sql:render -w @miniqueue/api`; a test fails when it is stale. Do not edit.
WITH slots AS (SELECT generate_series(date_bin(make_interval(secs => $3), $2::timestamptz, 'epoch'), date_bin(make_interval(secs => $3), now(), 'epoch'), make_interval(secs => $3)) AS at),
     latest AS (
       SELECT DISTINCT ON (1) date_bin(make_interval(secs => $3), s.bucket, 'epoch') AS at, s.bucket
         FROM rate_sample s
        WHERE s.bucket >= date_bin(make_interval(secs => $3), $2::timestamptz, 'epoch')
        ORDER BY 1, s.bucket DESC),
     counts AS (
       SELECT date_bin(make_interval(secs => $3), r.bucket, 'epoch') AS at, sum(r.enqueued) AS enqueued, sum(r.delivered) AS delivered,
              sum(r.acked) AS acked, sum(r.nacked) AS nacked, sum(r.dead) AS dead,
              sum(r.redelivered) AS redelivered, sum(r.replayed) AS replayed,
              sum(r.depth) FILTER (WHERE r.bucket = l.bucket) AS depth
         FROM queue_rate r LEFT JOIN latest l ON l.at = date_bin(make_interval(secs => $3), r.bucket, 'epoch')
        WHERE r.bucket >= date_bin(make_interval(secs => $3), $2::timestamptz, 'epoch') AND ($1::text IS NULL OR r.queue_name = $1)
        GROUP BY 1),
     publishes AS (
       SELECT date_bin(make_interval(secs => $3), t.bucket, 'epoch') AS at, sum(t.published) AS published
         FROM topic_rate t
        WHERE t.bucket >= date_bin(make_interval(secs => $3), $2::timestamptz, 'epoch') AND ($1::text IS NULL OR t.topic_name = (SELECT topic_name FROM queue WHERE name = $1))
        GROUP BY 1)
     SELECT slots.at, coalesce(p.published, 0)::int AS published, coalesce(c.enqueued, 0)::int AS enqueued,
            coalesce(c.delivered, 0)::int AS delivered, coalesce(c.acked, 0)::int AS acked, coalesce(c.nacked, 0)::int AS nacked,
            coalesce(c.dead, 0)::int AS dead, coalesce(c.redelivered, 0)::int AS redelivered,
            coalesce(c.replayed, 0)::int AS replayed, CASE WHEN l.bucket IS NOT NULL THEN coalesce(c.depth, 0)::int END AS depth
       FROM slots LEFT JOIN counts c USING (at) LEFT JOIN publishes p USING (at) LEFT JOIN latest l USING (at)
      ORDER BY slots.at
