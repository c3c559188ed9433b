import { mergeMeasurements, type Measurement } from '../measure.js';
import { expectStatus } from '../http.js';
import { BrokerSession, type RunContext } from '../session.js';
import { consumeAck, publishSingle, seed } from '../scenarios/throughput.js';
import { createKeys, purge } from '../scenarios/topology.js';

const ROUNDS = 2;
const LEVELS = 10;
const NAMES = { topic: 'bench.prio', plain: 'bench-prio-plain', ranked: 'bench-prio-ranked' };

/**
 * Priorities beside the plain claim, on a broker and database of their own. One topic feeds a
 * queue without priorities and a queue with max_priority 9; BENCH_BIG messages (1,000,000) are
 * published to it, their priorities spread evenly over the 10 levels, so each queue holds the same
 * backlog. Then consume + ack alternates between them (`consume_ack_priorities_plain`, oldest
 * first, and `consume_ack_priorities`, highest first), each taking from the top of its backlog.
 * Single publishes to each queue alone come last (`publish_single_no_priority`,
 * `publish_single_priority`: the second claim index's entry).
 */
export async function runPrioritiesPhase(context: RunContext, databaseUrl: string): Promise<Measurement[]> {
  const { config, log } = context;
  const a = await BrokerSession.open(context, 'priorities', databaseUrl);
  try {
    expectStatus(await a.admin.request('POST', '/api/v1/topics', { name: NAMES.topic }), 201);
    for (const [queue, settings] of [
      [NAMES.plain, {}],
      [NAMES.ranked, { max_priority: LEVELS - 1 }],
    ] as const) {
      expectStatus(await a.admin.request('POST', '/api/v1/queues', { name: queue, topic_name: NAMES.topic, ack_timeout_seconds: 3600, ...settings }), 201);
    }
    a.useKeys(await createKeys(a.admin));
    await a.warmUp();

    log(`seeding ${config.big.toLocaleString('en-US')} messages in ${LEVELS} priorities to both queues`);
    const started = Date.now();
    // Levels interleaved (7 is prime to 10): every level has messages old and new.
    await seed(a.publisher, NAMES.topic, config.big, 4, (n) => ({ priority: (n * 7) % LEVELS }));
    log(`  seeded in ${((Date.now() - started) / 1000).toFixed(0)} s`);

    const rounds: Record<string, Measurement[]> = { plain: [], ranked: [], publishPlain: [], publishRanked: [] };
    const n = config.big.toLocaleString('en-US');
    for (let round = 0; round < ROUNDS; round += 1) {
      rounds.plain.push(
        await a.measure('consume_ack_priorities_plain', `consume + ack, ${n} pending, no priorities`, () =>
          consumeAck(a.consumer, NAMES.plain, config.bigConsume, config.concurrency),
        ),
      );
      rounds.ranked.push(
        await a.measure('consume_ack_priorities', `consume + ack, ${n} pending in ${LEVELS} priorities`, () =>
          consumeAck(a.consumer, NAMES.ranked, config.bigConsume, config.concurrency),
        ),
      );
    }
    await purge(a.admin, NAMES.plain);
    await purge(a.admin, NAMES.ranked);
    // Each queue alone on a topic of its own for the publish comparison.
    for (const [topic, queue, settings] of [
      ['bench.prio-publish-plain', 'bench-prio-publish-plain', {}],
      ['bench.prio-publish-ranked', 'bench-prio-publish-ranked', { max_priority: LEVELS - 1 }],
    ] as const) {
      expectStatus(await a.admin.request('POST', '/api/v1/topics', { name: topic }), 201);
      expectStatus(await a.admin.request('POST', '/api/v1/queues', { name: queue, topic_name: topic, ...settings }), 201);
    }
    for (let round = 0; round < ROUNDS; round += 1) {
      rounds.publishPlain.push(
        await a.measure('publish_single_no_priority', 'publish, 1 per request, queue without priorities', () =>
          publishSingle(a.publisher, 'bench.prio-publish-plain', config.publishSingle, config.concurrency, { priority: 5 }),
        ),
      );
      rounds.publishRanked.push(
        await a.measure('publish_single_priority', 'publish, 1 per request, queue with max_priority 9', () =>
          publishSingle(a.publisher, 'bench.prio-publish-ranked', config.publishSingle, config.concurrency, { priority: 5 }),
        ),
      );
    }
    return [rounds.plain, rounds.ranked, rounds.publishPlain, rounds.publishRanked].map(mergeMeasurements);
  } finally {
    await a.close();
  }
}
