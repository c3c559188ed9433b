/**
 * Every message the database holds, whichever table it is in now (live, dead or acked), with its
 * status: for tests that reconcile what was stored. Use as a table: `SELECT … FROM ${ALL_MESSAGES}`.
 */
export const ALL_MESSAGES = `(
  SELECT id, queue_name, topic_name, payload, status, retry_count, consumer_id FROM message
  UNION ALL SELECT id, queue_name, topic_name, payload, 'DEAD', retry_count, consumer_id FROM message_dead
  UNION ALL SELECT id, queue_name, topic_name, payload, 'ACKED', retry_count, consumer_id FROM message_acked
) AS all_messages`;
