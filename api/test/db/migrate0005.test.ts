import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/db/migrate.js';
import { createEmptyDatabase } from '../helpers/database.js';

/**
 * Migration 0005 splits the one message table into live, dead and acked tables. A database that an
 * earlier version filled must come across whole: every message once, in the table its status
 * belongs to, with what it carried.
 */
let url: string;
let db: pg.Client;

beforeAll(async () => {
  url = await createEmptyDatabase('mq_migrate');
  await migrate(url, { to: '0004_monitor_presence.sql' });
  db = new pg.Client({ connectionString: url });
  await db.connect();
});
afterAll(() => db.end());

/** What an earlier version stored: `count` messages of each status in each of two queues. */
async function fillAsBefore(count: number): Promise<void> {
  await db.query(`INSERT INTO topic (name) VALUES ('orders')`);
  await db.query(`INSERT INTO queue (name, topic_name, ack_timeout_seconds, max_retries) VALUES ('mail', 'orders', 30, 5), ('stock', 'orders', 30, 5)`);
  await db.query(
    `INSERT INTO message (id, queue_name, topic_name, payload, headers, status, retry_count, available_at,
                          consumer_id, unacked_at, lease_expires_at, acked_at, dead_at, last_event)
     SELECT gen_random_uuid(), q, 'orders', q || '-' || s || '-' || i, jsonb_build_object('n', i::text), s,
            CASE WHEN s = 'DEAD' THEN 5 ELSE i % 3 END, now(),
            CASE WHEN s IN ('UNACKED', 'ACKED', 'DEAD') THEN 'worker' END,
            CASE WHEN s IN ('UNACKED', 'ACKED', 'DEAD') THEN now() END,
            CASE WHEN s = 'UNACKED' THEN now() + interval '30 seconds' END,
            CASE WHEN s = 'ACKED' THEN now() - (i || ' minutes')::interval END,
            CASE WHEN s = 'DEAD' THEN now() END,
            CASE s WHEN 'PENDING' THEN 'PUBLISHED' WHEN 'UNACKED' THEN 'CONSUMED' WHEN 'ACKED' THEN 'ACKED'
                   ELSE CASE WHEN i % 2 = 0 THEN 'EXPIRED_DEAD' ELSE 'NACKED_DEAD' END END
       FROM unnest(ARRAY['mail', 'stock']) AS q, unnest(ARRAY['PENDING', 'UNACKED', 'ACKED', 'DEAD']) AS s,
            generate_series(1, $1) AS i`,
    [count],
  );
}

describe('migration 0005', () => {
  it('moves every message to the table of its status, and loses none', async () => {
    await fillAsBefore(250);
    const before = (await db.query(`SELECT id, queue_name, payload, headers, status, retry_count, seq FROM message ORDER BY id`)).rows;
    const maxSeq = Math.max(...before.map((row) => Number(row.seq)));
    expect(before).toHaveLength(2 * 4 * 250);

    expect(await migrate(url)).toContain('0005_live_dead_acked.sql');

    const after = (
      await db.query(
        `SELECT id, queue_name, payload, headers, status, retry_count, seq FROM message
         UNION ALL SELECT id, queue_name, payload, headers, 'DEAD', retry_count, seq FROM message_dead
         UNION ALL SELECT id, queue_name, payload, headers, 'ACKED', retry_count, seq FROM message_acked
         ORDER BY id`,
      )
    ).rows;
    expect(after).toEqual(before);
    const reasons = (await db.query(`SELECT dead_reason, count(*)::int AS n FROM message_dead GROUP BY 1 ORDER BY 1`)).rows;
    expect(reasons).toEqual([
      { dead_reason: 'EXPIRED', n: 250 },
      { dead_reason: 'NACKED', n: 250 },
    ]);
    const counted = (await db.query(`SELECT queue_name, sum(acked)::int AS acked FROM queue_counter GROUP BY 1 ORDER BY 1`)).rows;
    expect(counted).toEqual([
      { queue_name: 'mail', acked: 250 },
      { queue_name: 'stock', acked: 250 },
    ]);
    // New messages continue the old numbering.
    await db.query(`INSERT INTO message (id, queue_name, topic_name, payload, headers, status, published_at, available_at)
                    VALUES (miniqueue_uuidv7(), 'mail', 'orders', 'new', '{}', 'PENDING', now(), now())`);
    const { rows } = await db.query(`SELECT seq FROM message WHERE payload = 'new'`);
    expect(Number(rows[0].seq)).toBeGreaterThan(maxSeq);
    // The old acked history sits in partitions; this hour and the next day have theirs.
    const parts = (await db.query(`SELECT count(*)::int AS n FROM pg_inherits WHERE inhparent = 'message_acked'::regclass`)).rows[0].n;
    expect(parts).toBeGreaterThanOrEqual(1 + 1 + 25);
  });
});
