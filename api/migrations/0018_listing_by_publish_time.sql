-- A queue's listing in publish order: "newest first" means the last published, whatever a delay, a
-- nack or a redelivery did to when a message became available. One index per table, along
-- (queue_name, published_at, seq), the listing's order.
--   message        PENDING and BLOCKED rows only: a claim (the row becomes UNACKED) adds no entry, so
--                  what it costs is one entry per publish and per return to PENDING (a nack, an
--                  expired lease); UNACKED rows, one per lease, are sorted from the lease index.
--   message_dead   one entry per death.
--   message_acked  one entry per ack while the queue keeps acked messages.
-- What they cost a publish and an ack: docs/performance.md ("Listing in publish order").
CREATE INDEX message_published_idx ON message (queue_name, published_at, seq) WHERE status <> 'UNACKED';
CREATE INDEX message_dead_published_idx ON message_dead (queue_name, published_at, seq);
CREATE INDEX message_acked_published_idx ON message_acked (queue_name, published_at, seq);
