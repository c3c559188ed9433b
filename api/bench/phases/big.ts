import type { Measurement } from '../measure.js';
import { BrokerSession, type RunContext } from '../session.js';
import { seedHistory, seedPending } from '../scenarios/big.js';
import { consumeAck, seed } from '../scenarios/throughput.js';
import { createKeys, createTopic } from '../scenarios/topology.js';

/**
 * Does the cost of a message stay flat as the backlog or the history grows? Each comparison has
 * a database and a broker of its own: consume + ack is measured on the empty database, then the
 * big state is built through the API, then the same workload is measured again, on the same
 * queue of the same broker process.
 */
export interface BigResult {
  empty: Measurement;
  big: Measurement;
  seedSeconds: number;
  size: number;
}

const NAMES = { topic: 'bench.big', queue: 'bench-big' };

async function compare(
  context: RunContext,
  session: BrokerSession,
  ids: { empty: string; big: string },
  labels: { empty: string; big: string },
  build: () => Promise<void>,
): Promise<BigResult> {
  const { config, log } = context;
  await createTopic(session.admin, NAMES.topic, [NAMES.queue]);
  session.useKeys(await createKeys(session.admin));
  await session.warmUp();

  await seed(session.publisher, NAMES.topic, config.bigConsume.count);
  const empty = await session.measure(ids.empty, labels.empty, () => consumeAck(session.consumer, NAMES.queue, config.bigConsume, config.concurrency));

  log(`seeding ${config.big.toLocaleString('en-US')} messages (${ids.big})`);
  const started = Date.now();
  await build();
  const seedSeconds = (Date.now() - started) / 1000;
  log(`  seeded in ${seedSeconds.toFixed(0)} s`);

  const big = await session.measure(ids.big, labels.big, () => consumeAck(session.consumer, NAMES.queue, config.bigConsume, config.concurrency));
  return { empty, big, seedSeconds, size: config.big };
}

/** 1,000,000 pending on the queue being consumed (BENCH_BIG), versus an empty database. */
export async function runPendingPhase(context: RunContext, databaseUrl: string): Promise<BigResult> {
  const session = await BrokerSession.open(context, 'pending', databaseUrl);
  try {
    const n = context.config.big.toLocaleString('en-US');
    return await compare(
      context,
      session,
      { empty: 'consume_ack_pending_empty', big: 'consume_ack_pending' },
      { empty: 'consume + ack, empty database', big: `consume + ack, ${n} pending` },
      () => seedPending(session.publisher, NAMES.topic, context.config.big, context.log),
    );
  } finally {
    await session.close();
  }
}

/**
 * 1,000,000 acked in the history of the queue being consumed (BENCH_BIG), versus an empty
 * database. The broker keeps acked messages for 24 hours here (MINIQUEUE_ACKED_RETENTION_HOURS;
 * a broker that does not know the setting keeps them anyway), so the history is really there.
 */
export async function runHistoryPhase(context: RunContext, databaseUrl: string): Promise<BigResult> {
  const session = await BrokerSession.open(context, 'history', databaseUrl, { MINIQUEUE_ACKED_RETENTION_HOURS: '24' });
  try {
    const n = context.config.big.toLocaleString('en-US');
    return await compare(
      context,
      session,
      { empty: 'consume_ack_history_empty', big: 'consume_ack_history' },
      { empty: 'consume + ack, empty database (retention 24 h)', big: `consume + ack, ${n} acked in history` },
      async () => {
        await seedHistory(session.publisher, session.consumer, NAMES, context.config.big, context.log);
        // The messages to consume, after the history: the newest rows, as in real life.
        await seed(session.publisher, NAMES.topic, context.config.bigConsume.count);
      },
    );
  } finally {
    await session.close();
  }
}
