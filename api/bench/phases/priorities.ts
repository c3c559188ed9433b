import { Rounds, type Measurement } from '../measure.js';
import { BrokerSession, type RunContext } from '../session.js';
import { consumeAck, publishSingle, seed } from '../scenarios/throughput.js';
import { purge, type Topics } from '../scenarios/topology.js';

const ROUNDS = 2;
const LEVELS = 10;
const RANKED = { max_priority: LEVELS - 1 };
const NAMES = { topic: 'bench.prio', plain: 'bench-prio-plain', ranked: 'bench-prio-ranked' };
/** Each queue alone on a topic of its own for the publish comparison. */
const PUBLISH = { plain: 'bench.prio-publish-plain', ranked: 'bench.prio-publish-ranked' };

/**
 * Priorities beside the plain claim, on a broker and database of their own. One topic feeds a
 * queue without priorities and a queue with max_priority 9; BENCH_BIG messages (1,000,000) are
 * published to it, their priorities spread evenly over the 10 levels, so each queue holds the same
 * backlog. Then consume + ack alternates between them (`consume_ack_priorities_plain`, oldest
 * first, and `consume_ack_priorities`, highest first), each taking from the top of its backlog.
 * Single publishes to each queue alone come last (`publish_single_no_priority`,
 * `publish_single_priority`: the second claim index's entry).
 */
export function runPrioritiesPhase(context: RunContext, databaseUrl: string): Promise<Measurement[]> {
  const { config, log } = context;
  const topics: Topics = {
    [NAMES.topic]: { [NAMES.plain]: {}, [NAMES.ranked]: RANKED },
    [PUBLISH.plain]: { 'bench-prio-publish-plain': {} },
    [PUBLISH.ranked]: { 'bench-prio-publish-ranked': RANKED },
  };
  return BrokerSession.around(context, 'priorities', databaseUrl, topics, async (a) => {
    log(`seeding ${config.big.toLocaleString('en-US')} messages in ${LEVELS} priorities to both queues`);
    const started = Date.now();
    // Levels interleaved (7 is prime to 10): every level has messages old and new.
    await seed(a.publisher, NAMES.topic, config.big, 4, (n) => ({ priority: (n * 7) % LEVELS }));
    log(`  seeded in ${((Date.now() - started) / 1000).toFixed(0)} s`);

    const rounds = new Rounds();
    const n = config.big.toLocaleString('en-US');
    for (let round = 0; round < ROUNDS; round += 1) {
      rounds.add(
        await a.measure('consume_ack_priorities_plain', `consume + ack, ${n} pending, no priorities`, () =>
          consumeAck(a.consumer, NAMES.plain, config.bigConsume, config.concurrency),
        ),
      );
      rounds.add(
        await a.measure('consume_ack_priorities', `consume + ack, ${n} pending in ${LEVELS} priorities`, () =>
          consumeAck(a.consumer, NAMES.ranked, config.bigConsume, config.concurrency),
        ),
      );
    }
    await purge(a.admin, NAMES.plain);
    await purge(a.admin, NAMES.ranked);
    for (let round = 0; round < ROUNDS; round += 1) {
      rounds.add(
        await a.measure('publish_single_no_priority', 'publish, 1 per request, queue without priorities', () =>
          publishSingle(a.publisher, PUBLISH.plain, config.publishSingle, config.concurrency, { priority: 5 }),
        ),
      );
      rounds.add(
        await a.measure('publish_single_priority', `publish, 1 per request, queue with max_priority ${LEVELS - 1}`, () =>
          publishSingle(a.publisher, PUBLISH.ranked, config.publishSingle, config.concurrency, { priority: 5 }),
        ),
      );
    }
    return rounds.merged();
  });
}
