-- The live table churns: every message is inserted, rewritten when claimed and deleted when acked.
-- Its dead rows sit at the head of the claim index, where every claim starts, until VACUUM removes
-- them; PostgreSQL's default (vacuum after 20% of the table is dead) lets a burst of a million acks
-- leave a million dead index entries for each claim to step over. Vacuum it as soon as 10,000 rows
-- are dead, without the cost-based pauses. (The broker also vacuums it itself when autovacuum,
-- which looks at each table once a minute by default, falls behind: `jobs/liveTableVacuum.ts`).
ALTER TABLE message SET (
  autovacuum_vacuum_scale_factor = 0,
  autovacuum_vacuum_threshold = 10000,
  autovacuum_vacuum_cost_delay = 0,
  autovacuum_vacuum_insert_scale_factor = 0,
  autovacuum_vacuum_insert_threshold = 100000,
  autovacuum_analyze_scale_factor = 0.05
);
