import { Rounds, type Measurement } from '../measure.js';
import { BrokerSession, type RunContext } from '../session.js';
import { consumeAck, publishSingle, seed } from '../scenarios/throughput.js';
import { purge, type Topics } from '../scenarios/topology.js';

const ROUNDS = 2;
/** A time to live the bench never reaches: every message pays for its deadline, none expires. */
const AN_HOUR = 3_600;

/**
 * Message expiry beside the plain publish and claim, in alternating rounds on one broker and a
 * database of its own: `publish_single_expiring` (expires_in_seconds: the deadline and the partial
 * index's entry) against `publish_single_no_expiry`, and `consume_ack_ttl` (a queue with
 * message_ttl_seconds: each claim tests the deadline, each ack removes an index entry) against
 * `consume_ack_no_expiry`.
 */
export function runExpiryPhase(context: RunContext, databaseUrl: string): Promise<Measurement[]> {
  const { config } = context;
  const { concurrency } = config;
  const topics: Topics = { 'bench.plain': { 'bench-plain': {} }, 'bench.ttl': { 'bench-ttl': { message_ttl_seconds: AN_HOUR } } };
  return BrokerSession.around(context, 'expiry', databaseUrl, topics, async (a) => {
    const rounds = new Rounds();
    for (let round = 0; round < ROUNDS; round += 1) {
      rounds.add(
        await a.measure('publish_single_no_expiry', 'publish, 1 per request, no expiry', () =>
          publishSingle(a.publisher, 'bench.plain', config.publishSingle, concurrency),
        ),
      );
      await purge(a.admin, 'bench-plain');
      rounds.add(
        await a.measure('publish_single_expiring', 'publish, 1 per request, expires_in_seconds', () =>
          publishSingle(a.publisher, 'bench.plain', config.publishSingle, concurrency, { expires_in_seconds: AN_HOUR }),
        ),
      );
      await purge(a.admin, 'bench-plain');
      await seed(a.publisher, 'bench.plain', config.consumeAck.count);
      rounds.add(
        await a.measure('consume_ack_no_expiry', 'consume + ack, queue without expiry', () =>
          consumeAck(a.consumer, 'bench-plain', config.consumeAck, concurrency),
        ),
      );
      await purge(a.admin, 'bench-plain');
      await seed(a.publisher, 'bench.ttl', config.consumeAck.count);
      rounds.add(
        await a.measure('consume_ack_ttl', 'consume + ack, queue with message_ttl_seconds', () =>
          consumeAck(a.consumer, 'bench-ttl', config.consumeAck, concurrency),
        ),
      );
      await purge(a.admin, 'bench-ttl');
    }
    return rounds.merged();
  });
}
