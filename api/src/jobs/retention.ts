import type { Pool } from '../db/pool.js';
import { ackedPartitionsDropExpired, ackedPartitionsEnsure } from '../db/queries/ackedHistory.js';
import { messageDeadDeleteExpired } from '../db/queries/messageDead.js';
import type { Job } from './job.js';

/** Hourly partitions of acked history are made this far ahead, so acks never wait for one. */
const PARTITIONS_AHEAD_HOURS = 24;
const DEAD_BATCH = 1_000;

/**
 * Keeps acked history and dead letters within their retention: creates the coming hours'
 * partitions of message_acked, drops the partitions past every queue's retention (a DROP TABLE,
 * never row by row), and deletes dead letters older than their own retention when one is set.
 * Runs at start and then every minute on every instance; the DDL is idempotent, and a lock that
 * cannot be had at once is left to the next pass instead of queueing acks behind it.
 */
export function retention(pool: Pool, settings: { ackedRetentionHours: number; deadRetentionHours: number }): Job {
  return {
    name: 'retention',
    async runOnce() {
      const client = await pool.connect();
      let failed: unknown;
      try {
        await client.query(`SET lock_timeout = '200ms'`);
        const created = await ackedPartitionsEnsure(client, PARTITIONS_AHEAD_HOURS);
        const dropped = await ackedPartitionsDropExpired(client, settings.ackedRetentionHours);
        let deadDeleted = 0;
        while (settings.deadRetentionHours > 0) {
          const deleted = await messageDeadDeleteExpired(client, settings.deadRetentionHours, DEAD_BATCH);
          deadDeleted += deleted;
          if (deleted < DEAD_BATCH) break;
        }
        await client.query('RESET lock_timeout');
        return { created, dropped, deadDeleted };
      } catch (error) {
        failed = error;
        throw error;
      } finally {
        client.release(failed instanceof Error ? failed : undefined);
      }
    },
  };
}
