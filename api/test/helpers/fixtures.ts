import type { TestBroker } from './broker.js';

/** Creates a topic and queues bound to it (with any settings); returns nothing, throws on any failure. */
export async function topology(mq: TestBroker, topic: string, queues: ({ name: string } & Record<string, unknown>)[]): Promise<void> {
  const created = await mq.post('/api/v1/topics', { name: topic }, mq.adminKey);
  if (created.status !== 201) throw new Error(`topic ${topic}: ${created.status}`);
  for (const queue of queues) {
    const response = await mq.post('/api/v1/queues', { topic_name: topic, ...queue }, mq.adminKey);
    if (response.status !== 201) throw new Error(`queue ${queue.name}: ${response.status} ${JSON.stringify(response.body)}`);
  }
}

export async function publishOne(mq: TestBroker, topic: string, payload: string, key = mq.adminKey): Promise<string[]> {
  const response = await mq.post(`/api/v1/topics/${topic}/messages`, { payload }, key);
  if (response.status !== 201) throw new Error(`publish: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.message_ids;
}

/** Publishes one message with these fields as the admin: its ids (one per queue). */
export async function publishMessage(mq: TestBroker, topic: string, body: Record<string, unknown>): Promise<string[]> {
  const response = await mq.post(`/api/v1/topics/${topic}/messages`, body, mq.adminKey);
  if (response.status !== 201) throw new Error(`publish: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.message_ids;
}

/** Claims up to `max` messages of a queue as the admin, waiting up to `waitSeconds` for the first. */
export async function receiveMessages<T>(mq: TestBroker, queue: string, max = 100, waitSeconds = 0): Promise<T[]> {
  const response = await mq.post(`/api/v1/queues/${queue}/receive`, { max_messages: max, wait_seconds: waitSeconds }, mq.adminKey);
  if (response.status !== 200) throw new Error(`receive: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.messages;
}

/** Makes every current lease of the database run out now (instead of waiting for it). */
export async function expireAllLeases(mq: TestBroker): Promise<void> {
  await mq.pool.query(`UPDATE message SET lease_expires_at = now() - interval '1 second' WHERE status = 'UNACKED'`);
}

/** A message's state, whichever table holds it now (live, dead or acked). */
export async function statusOf(mq: TestBroker, id: string) {
  const { rows } = await mq.pool.query(
    `SELECT status, retry_count, consumer_id FROM message WHERE id = $1
     UNION ALL SELECT 'DEAD', retry_count, consumer_id FROM message_dead WHERE id = $1
     UNION ALL SELECT 'ACKED', retry_count, consumer_id FROM message_acked WHERE id = $1`,
    [id],
  );
  return rows[0] as { status: string; retry_count: number; consumer_id: string | null } | undefined;
}
