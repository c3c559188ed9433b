import { mergeMeasurements, type Measurement } from '../measure.js';
import { expectStatus } from '../http.js';
import { BrokerSession, type RunContext } from '../session.js';
import { publishSingle, seed } from '../scenarios/throughput.js';
import { createKeys, createTopic, purge } from '../scenarios/topology.js';

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
export async function runBoundedPhase(context: RunContext, databaseUrl: string): Promise<Measurement[]> {
  const { config, log } = context;
  const { concurrency } = config;
  const a = await BrokerSession.open(context, 'bounded', databaseUrl);
  try {
    await createTopic(a.admin, 'bench.unbounded', ['bench-unbounded']);
    await createTopic(a.admin, 'bench.bounded', ['bench-bounded']);
    await createTopic(a.admin, 'bench.full', ['bench-full']);
    expectStatus(await a.admin.request('PATCH', '/api/v1/queues/bench-bounded', { max_messages: NEVER_FULL }), 200);
    expectStatus(await a.admin.request('PATCH', '/api/v1/queues/bench-full', { max_messages: FULL_AT, overflow: 'drop_oldest' }), 200);
    a.useKeys(await createKeys(a.admin));
    log('warming up');
    await a.warmUp();
    await seed(a.publisher, 'bench.full', FULL_AT);
    const rounds: Record<string, Measurement[]> = { unbounded: [], bounded: [], drop: [] };
    for (let round = 0; round < ROUNDS; round += 1) {
      rounds.unbounded.push(
        await a.measure('publish_single_unbounded', 'publish, 1 per request, unbounded queue', () =>
          publishSingle(a.publisher, 'bench.unbounded', config.publishSingle, concurrency),
        ),
      );
      await purge(a.admin, 'bench-unbounded');
      rounds.bounded.push(
        await a.measure('publish_single_bounded', 'publish, 1 per request, bounded queue (never full)', () =>
          publishSingle(a.publisher, 'bench.bounded', config.publishSingle, concurrency),
        ),
      );
      await purge(a.admin, 'bench-bounded');
      rounds.drop.push(
        await a.measure('publish_single_bounded_drop', `publish, 1 per request, full drop_oldest queue (${FULL_AT})`, () =>
          publishSingle(a.publisher, 'bench.full', config.publishSingle, concurrency),
        ),
      );
    }
    return [mergeMeasurements(rounds.unbounded), mergeMeasurements(rounds.bounded), mergeMeasurements(rounds.drop)];
  } finally {
    await a.close();
  }
}
