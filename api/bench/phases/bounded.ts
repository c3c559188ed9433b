import { Rounds, type Measurement } from '../measure.js';
import { BrokerSession, type RunContext } from '../session.js';
import { publishSingle, seed } from '../scenarios/throughput.js';
import { purge, type Topics } from '../scenarios/topology.js';

const ROUNDS = 2;
/** A bound the bench never reaches: every publish pays the bound's lock and count, never its overflow. */
const NEVER_FULL = 1_000_000_000;
/** A full drop_oldest queue: every publish also deletes the oldest message. */
const FULL_AT = 1_000;

/**
 * Bounded queues beside the plain publish, in alternating rounds on one broker and a database of
 * their own: `publish_single_unbounded` (the "× baseline"), `publish_single_bounded` (a
 * reject_publish bound it never reaches: the queue lock and the counts), and
 * `publish_single_bounded_drop` (a full drop_oldest queue: each publish also makes room).
 */
export function runBoundedPhase(context: RunContext, databaseUrl: string): Promise<Measurement[]> {
  const { config } = context;
  const { concurrency } = config;
  const topics: Topics = {
    'bench.unbounded': { 'bench-unbounded': {} },
    'bench.bounded': { 'bench-bounded': { max_messages: NEVER_FULL } },
    'bench.full': { 'bench-full': { max_messages: FULL_AT, overflow: 'drop_oldest' } },
  };
  return BrokerSession.around(context, 'bounded', databaseUrl, topics, async (a) => {
    await seed(a.publisher, 'bench.full', FULL_AT);
    const rounds = new Rounds();
    for (let round = 0; round < ROUNDS; round += 1) {
      rounds.add(
        await a.measure('publish_single_unbounded', 'publish, 1 per request, unbounded queue', () =>
          publishSingle(a.publisher, 'bench.unbounded', config.publishSingle, concurrency),
        ),
      );
      await purge(a.admin, 'bench-unbounded');
      rounds.add(
        await a.measure('publish_single_bounded', 'publish, 1 per request, bounded queue (never full)', () =>
          publishSingle(a.publisher, 'bench.bounded', config.publishSingle, concurrency),
        ),
      );
      await purge(a.admin, 'bench-bounded');
      rounds.add(
        await a.measure('publish_single_bounded_drop', `publish, 1 per request, full drop_oldest queue (${FULL_AT})`, () =>
          publishSingle(a.publisher, 'bench.full', config.publishSingle, concurrency),
        ),
      );
    }
    return rounds.merged();
  });
}
