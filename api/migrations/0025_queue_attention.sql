-- When the dashboard flags a queue as needing attention: its own thresholds, or never (muted).
--   queue.attention  {"muted": false, "oldest_pending_seconds": null, "backlog_growth": null, "dead_per_minute": null}
--                    muted: no flag for this queue. Each threshold replaces the flag's default number
--                    (dashboard/src/features/attention/api/conditions.ts), null: the default. The alert
--                    rules of prometheus/alerts.yml keep the defaults (silence an alert in Alertmanager).
-- An object of its own, set as a whole, so a new threshold is a new key, not a new column.
ALTER TABLE queue
  ADD COLUMN attention jsonb NOT NULL
    DEFAULT '{"muted": false, "oldest_pending_seconds": null, "backlog_growth": null, "dead_per_minute": null}'::jsonb
    CHECK (jsonb_typeof(attention) = 'object');
