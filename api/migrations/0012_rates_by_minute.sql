-- Per-minute totals of the 5-second rate buckets (0008), for windows longer than an hour: a day of
-- 50 queues is 72,000 rows here against 864,000 there. The rate recorder adds every write to both
-- in the same statement (an additive upsert, as for the buckets), so they never disagree.
--
-- depth: the queue's depth at the latest sampled bucket of the minute that counted it, and
-- depth_bucket that bucket. A queue with nothing pending at a sample has no depth for it, so a
-- reader takes, for each minute, the rows whose depth_bucket is the minute's latest sample
-- (rate_sample) and counts the others as 0, as it does for the buckets.
CREATE TABLE queue_rate_minute (
  queue_name    text NOT NULL,
  minute        timestamptz NOT NULL,
  enqueued      integer NOT NULL DEFAULT 0,
  delivered     integer NOT NULL DEFAULT 0,
  acked         integer NOT NULL DEFAULT 0,
  nacked        integer NOT NULL DEFAULT 0,
  dead          integer NOT NULL DEFAULT 0,
  redelivered   integer NOT NULL DEFAULT 0,
  replayed      integer NOT NULL DEFAULT 0,
  depth         integer,
  depth_bucket  timestamptz,
  PRIMARY KEY (queue_name, minute)
);
CREATE INDEX queue_rate_minute_minute_idx ON queue_rate_minute (minute);

CREATE TABLE topic_rate_minute (
  topic_name  text NOT NULL,
  minute      timestamptz NOT NULL,
  published   integer NOT NULL DEFAULT 0,
  PRIMARY KEY (topic_name, minute)
);
CREATE INDEX topic_rate_minute_minute_idx ON topic_rate_minute (minute);

-- Rebuilds the per-minute totals of the minutes in [from_ts, to_ts) from the buckets. Used once,
-- below, for the history kept so far; the recorder keeps them up to date after that.
CREATE FUNCTION miniqueue_rates_rollup(from_ts timestamptz, to_ts timestamptz) RETURNS void LANGUAGE sql AS $$
  DELETE FROM queue_rate_minute WHERE minute >= date_bin('1 minute', from_ts, 'epoch') AND minute < to_ts;
  DELETE FROM topic_rate_minute WHERE minute >= date_bin('1 minute', from_ts, 'epoch') AND minute < to_ts;
  INSERT INTO queue_rate_minute (queue_name, minute, enqueued, delivered, acked, nacked, dead, redelivered, replayed, depth, depth_bucket)
  SELECT queue_name, date_bin('1 minute', bucket, 'epoch'), sum(enqueued), sum(delivered), sum(acked), sum(nacked), sum(dead),
         sum(redelivered), sum(replayed),
         (array_agg(depth ORDER BY bucket DESC) FILTER (WHERE depth IS NOT NULL))[1],
         max(bucket) FILTER (WHERE depth IS NOT NULL)
    FROM queue_rate
   WHERE bucket >= date_bin('1 minute', from_ts, 'epoch') AND bucket < to_ts
   GROUP BY 1, 2;
  INSERT INTO topic_rate_minute (topic_name, minute, published)
  SELECT topic_name, date_bin('1 minute', bucket, 'epoch'), sum(published)
    FROM topic_rate
   WHERE bucket >= date_bin('1 minute', from_ts, 'epoch') AND bucket < to_ts
   GROUP BY 1, 2;
$$;

-- Instances still writing buckets meanwhile add to the minutes too once they run this version;
-- until then their writes reach the buckets only (the minute totals are a little short for them).
SELECT miniqueue_rates_rollup(least((SELECT min(bucket) FROM queue_rate), (SELECT min(bucket) FROM topic_rate), now()), 'infinity');
