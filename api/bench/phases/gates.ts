import { wants, type BenchConfig } from '../config.js';
import { Rounds, type Measurement } from '../measure.js';
import { BrokerSession, type RunContext } from '../session.js';
import { receiveAckWaiting } from '../scenarios/gates.js';
import { consumeAck, seed } from '../scenarios/throughput.js';
import { purge, type Topics } from '../scenarios/topology.js';

/** The workloads of this phase, as BENCH_ONLY names them. */
const GATE_WORKLOADS = ['consume_ack_gates_plain', 'consume_ack_rate_limited', 'consume_ack_single_active', 'delivery_rate_200'];
const ROUNDS = 2;
const LIMIT = 200;
/** Far above what one broker claims here: the gated claim's own cost, not the limit, is measured. */
const UNREACHED_LIMIT = 100_000;

/** With BENCH_ONLY naming one of them, or whenever the main phase runs. */
export const runsGates = (config: Pick<BenchConfig, 'only' | 'phases'>): boolean =>
  config.only ? GATE_WORKLOADS.some((id) => wants(config, id)) : config.phases.includes('main');

/**
 * Delivery gates beside the plain claim, on a broker and database of their own: consume + ack on
 * a plain queue, on a queue with a rate limit it never reaches, and on a single-active-consumer
 * queue (one consumer identity, 32 requests in flight), in alternating rounds; then a queue limited
 * to 200 deliveries a second under 32 long-polling consumers that could go much faster.
 */
export function runGatesPhase(context: RunContext, databaseUrl: string): Promise<Measurement[]> {
  const { config } = context;
  const topics: Topics = {
    'bench.gates-plain': { 'bench-gates-plain': {} },
    'bench.gates-rate': { 'bench-gates-rate': { max_deliveries_per_second: UNREACHED_LIMIT } },
    'bench.gates-single': { 'bench-gates-single': { single_active_consumer: true } },
    'bench.gates-200': { 'bench-gates-200': { max_deliveries_per_second: LIMIT } },
  };
  return BrokerSession.around(context, 'gates', databaseUrl, topics, async (a) => {
    const bound = config.consumeAck;
    const variants = [
      ['consume_ack_gates_plain', 'consume + ack, plain queue (this phase)', 'bench.gates-plain', 'bench-gates-plain'],
      ['consume_ack_rate_limited', `consume + ack, limit ${UNREACHED_LIMIT}/s (not reached)`, 'bench.gates-rate', 'bench-gates-rate'],
      ['consume_ack_single_active', 'consume + ack, single active consumer', 'bench.gates-single', 'bench-gates-single'],
    ] as const;
    const rounds = new Rounds();
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [id, label, topic, queue] of variants) {
        await seed(a.publisher, topic, bound.count);
        rounds.add(await a.measure(id, label, () => consumeAck(a.consumer, queue, bound, config.concurrency)));
        await purge(a.admin, queue);
      }
    }
    const seconds = Math.min(10, Math.max(2, bound.seconds));
    await seed(a.publisher, 'bench.gates-200', Math.ceil(LIMIT * seconds * 2));
    const limited = await a.measure('delivery_rate_200', `delivered rate, limit ${LIMIT}/s, 32 consumers receiving 10`, async () => {
      const result = await receiveAckWaiting(a.consumer, 'bench-gates-200', 10, seconds, config.concurrency);
      return { ...result, extra: { limit: LIMIT } };
    });
    return [...rounds.merged(), limited];
  });
}
