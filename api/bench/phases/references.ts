import { wants } from '../config.js';
import type { RunContext } from '../session.js';
import { measure, type Measurement } from '../measure.js';
import { PgBossBench } from '../pgboss.js';
import { prepareRaw, rawCommits } from '../raw.js';
import type { ReferenceId } from '../results.js';

/**
 * The figures MiniQueue is read against, on the same server and in the same database as its
 * main workloads, before any broker runs there: the raw INSERT commit ceiling (with and without
 * a NOTIFY in the transaction) and pg-boss's send, insert and fetch+complete.
 */
export async function runReferences(context: RunContext, databaseUrl: string): Promise<Partial<Record<ReferenceId, Measurement>>> {
  const { config, log } = context;
  const connections = config.referenceConnections;
  const options = (id: ReferenceId, label: string, system: Measurement['system']) => ({
    id,
    label,
    system,
    databaseUrl,
    serverUrl: context.serverUrl,
    sampleEveryMs: config.sampleEveryMs,
    log,
  });

  const found: Partial<Record<ReferenceId, Measurement>> = {};
  const want = (id: ReferenceId) => wants(config, id);
  await prepareRaw(databaseUrl);
  if (want('raw_insert')) {
    found.raw_insert = await measure(options('raw_insert', `raw INSERT commits, ${connections} connections`, 'postgres'), () =>
      rawCommits(databaseUrl, 'insert', connections, config.rawSeconds),
    );
  }
  if (want('raw_insert_notify')) {
    found.raw_insert_notify = await measure(options('raw_insert_notify', `raw INSERT + pg_notify commits, ${connections} connections`, 'postgres'), () =>
      rawCommits(databaseUrl, 'insert+notify', connections, config.rawSeconds),
    );
  }
  const bossIds: ReferenceId[] = ['pgboss_send', 'pgboss_insert', 'pgboss_fetch_1', 'pgboss_fetch_10', 'pgboss_fetch_10_short'];
  if (!bossIds.some(want)) return found;

  const boss = await PgBossBench.start(databaseUrl, connections);
  try {
    for (const queue of ['bench-send', 'bench-insert', 'bench-fetch-1', 'bench-fetch-10', 'bench-fetch-10-short']) await boss.createQueue(queue);
    if (want('pgboss_send')) {
      found.pgboss_send = await measure(options('pgboss_send', `pg-boss send, ${connections} callers`, 'pg-boss'), () =>
        boss.send('bench-send', config.pgBossSend, connections),
      );
    }
    if (want('pgboss_insert')) {
      found.pgboss_insert = await measure(options('pgboss_insert', `pg-boss insert(${config.batchSize}), ${connections} callers`, 'pg-boss'), () =>
        boss.insert('bench-insert', config.batchSize, config.pgBossInsert, connections),
      );
    }
    // The same backlog MiniQueue's consume + ack starts with (config.consumeAck.count), so the
    // two consume figures are taken under the same conditions.
    const backlog = config.consumeAck.count;
    const fetch = async (id: ReferenceId, queue: string, batch: number, keepQueued?: number) => {
      const seeded = keepQueued ?? backlog;
      await boss.seed(queue, seeded);
      const queued = keepQueued ? `~${keepQueued.toLocaleString('en-US')} queued, topped up` : `${seeded.toLocaleString('en-US')} queued`;
      return measure(options(id, `pg-boss fetch(${batch}) + complete, ${connections} callers, ${queued}`, 'pg-boss'), () =>
        boss.fetchComplete(queue, batch, config.pgBossFetch, connections, { seeded, keepQueued }),
      );
    };
    if (want('pgboss_fetch_1')) found.pgboss_fetch_1 = await fetch('pgboss_fetch_1', 'bench-fetch-1', 1);
    if (want('pgboss_fetch_10')) found.pgboss_fetch_10 = await fetch('pgboss_fetch_10', 'bench-fetch-10', 10);
    // For context only (no target uses it): pg-boss at its best, with a short queue.
    if (want('pgboss_fetch_10_short')) found.pgboss_fetch_10_short = await fetch('pgboss_fetch_10_short', 'bench-fetch-10-short', 10, config.pgBossShortQueue);
    return found;
  } finally {
    await boss.stop();
  }
}
