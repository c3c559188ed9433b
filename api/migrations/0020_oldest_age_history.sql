-- Each queue's oldest pending age at every depth sample, so the dashboard can ask what the alert
-- MiniQueueOldestPendingTooOld asks of Prometheus: is the oldest pending age over 3 times its
-- average over the last day (avg_over_time(...[1d]))? The rate recorder adds the age of each
-- sample to the sample's minute and to its hour, in the statement that writes the depth
-- (db/queries/rates.ts, ratesFlush). A day's average is the sum over the day (its first, partial
-- hour from the minutes, the rest from the hours: at most 84 rows per queue, where 1,440 minutes
-- took 1.4 ms a queue) divided by the samples taken meanwhile (rate_sample). A queue without a row
-- at a sample had nothing pending: its age counts as 0 there, as the gauge reads then.
ALTER TABLE queue_rate_minute ADD COLUMN oldest_age_total bigint NOT NULL DEFAULT 0;

CREATE TABLE queue_oldest_age_hour (
  queue_name  text NOT NULL,
  hour        timestamptz NOT NULL,
  total       bigint NOT NULL,
  PRIMARY KEY (queue_name, hour)
);
CREATE INDEX queue_oldest_age_hour_hour_idx ON queue_oldest_age_hour (hour);
