import { Rounds, type Measurement } from '../measure.js';
import { withClient } from '../postgres.js';
import { latency } from '../results.js';
import { BrokerSession, type RunContext } from '../session.js';
import { learnGates, quietKeyLatencies } from '../scenarios/fairness.js';
import { consumeAck, seed } from '../scenarios/throughput.js';
import { purge, type Topics } from '../scenarios/topology.js';

const ROUNDS = 2;
/** The consume + ack comparison: messages dealt out over this many group keys, each at most FAIR_PER_KEY in flight. */
export const FAIR_KEYS = 100;
export const FAIR_PER_KEY = 50;
/** The latency comparison: what the noisy key (and the quiet one) may have in flight, and its consumers. */
const LATENCY_PER_KEY = 10;
const CONSUMERS = 4;
const RECEIVE = 10;
const WAIT_SECONDS = 2;
const NAMES = {
  topic: 'bench.fair',
  plain: 'bench-fair-plain',
  fair: 'bench-fair',
  idleTopic: 'bench.fair-idle',
  idle: 'bench-fair-idle',
  noisyTopic: 'bench.fair-noisy',
  noisy: 'bench-fair-noisy',
};

/**
 * The message table's statistics brought up to date after a seed, as autovacuum does within a
 * minute of one this size: the claim's plans follow them (with one key holding nearly every row,
 * the planner reads another key's head differently), so no figure may depend on whether autovacuum
 * has woken yet.
 */
const analyze = (databaseUrl: string) => withClient(databaseUrl, (client) => client.query('ANALYZE message'));

/** Latency figures in a Measurement's `extra` (milliseconds), read by targets.ts and report.ts. */
export const FAIR_LATENCY_IDS = { idle: 'fair_quiet_latency_idle', noisy: 'fair_quiet_latency_noisy' } as const;

/**
 * Fair sharing (fairness by_key), on a broker and database of their own. First the issue's
 * measure, while the database holds nothing else: a quiet key's publish → delivery on a fair queue
 * (max_in_flight_per_key 10) under 4 long-polling consumers that claim and ack the whole time, on
 * an idle fair queue (`fair_quiet_latency_idle`) and on one where a noisy key has BENCH_BIG
 * (1,000,000) pending (`fair_quiet_latency_noisy`), in alternating rounds. On a plain queue the
 * quiet message would wait behind the whole backlog, so that is not measured. Then the fair
 * claim's own cost: one topic feeds a plain queue and a fair queue (max_in_flight_per_key 50),
 * 3 × the consume + ack count of messages dealt out over 100 group keys go to both, and consume +
 * ack alternates between them in two rounds (`consume_ack_fair_plain`, `consume_ack_fair`).
 */
export function runFairnessPhase(context: RunContext, databaseUrl: string): Promise<Measurement[]> {
  const { config, log } = context;
  const topics: Topics = {
    [NAMES.topic]: { [NAMES.plain]: {}, [NAMES.fair]: { fairness: 'by_key', max_in_flight_per_key: FAIR_PER_KEY } },
    [NAMES.idleTopic]: { [NAMES.idle]: { fairness: 'by_key', max_in_flight_per_key: LATENCY_PER_KEY } },
    [NAMES.noisyTopic]: { [NAMES.noisy]: { fairness: 'by_key', max_in_flight_per_key: LATENCY_PER_KEY } },
  };
  return BrokerSession.around(context, 'fairness', databaseUrl, topics, async (a) => {
    await learnGates(a.consumer, [NAMES.idle, NAMES.noisy]);
    const rounds = new Rounds();
    // The latencies first, while the database holds nothing but the noisy backlog: which index the
    // quiet key's claim reads is the planner's choice, and the other workloads' leftovers (a larger
    // claim index) would make it.
    const n = config.big.toLocaleString('en-US');
    log(`seeding ${n} messages of one noisy key`);
    const started = Date.now();
    await seed(a.publisher, NAMES.noisyTopic, config.big, 4, () => ({ group_key: 'noisy' }));
    log(`  seeded in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    await analyze(a.databaseUrl);

    const options = { probes: config.wakeSamples, gapMs: config.wakeSettleMs, consumers: CONSUMERS, receive: RECEIVE, waitSeconds: WAIT_SECONDS };
    const samples = { idle: [] as number[], noisy: [] as number[] };
    const probing = (kind: 'idle' | 'noisy', label: string, names: { topic: string; queue: string }) =>
      a.measure(FAIR_LATENCY_IDS[kind], label, async () => {
        const result = await quietKeyLatencies(a.consumer, a.publisher, names, options);
        samples[kind].push(...result.latencies);
        return { messages: result.messages, requests: result.requests, seconds: result.seconds, extra: { others: result.others } };
      });
    const fairQueue = `fair queue, ${LATENCY_PER_KEY} in flight per key, ${CONSUMERS} consumers receiving ${RECEIVE}`;
    for (let round = 0; round < ROUNDS; round += 1) {
      rounds.add(await probing('idle', `quiet key publish → delivery, idle ${fairQueue}`, { topic: NAMES.idleTopic, queue: NAMES.idle }));
      rounds.add(
        await probing('noisy', `quiet key publish → delivery, ${n} pending on a noisy key, ${fairQueue}`, {
          topic: NAMES.noisyTopic,
          queue: NAMES.noisy,
        }),
      );
    }
    await purge(a.admin, NAMES.noisy);

    // Enough that neither queue runs dry in the rounds (each takes at most the consume + ack count).
    const backlog = config.consumeAck.count * (ROUNDS + 1);
    await seed(a.publisher, NAMES.topic, backlog, 4, (i) => ({ group_key: `tenant-${i % FAIR_KEYS}` }));
    await analyze(a.databaseUrl);
    // The plain queue too, so that both give up one message to it.
    await learnGates(a.consumer, [NAMES.plain, NAMES.fair]);
    const spread = `${backlog.toLocaleString('en-US')} pending over ${FAIR_KEYS} keys`;
    for (let round = 0; round < ROUNDS; round += 1) {
      rounds.add(
        await a.measure('consume_ack_fair_plain', `consume + ack, ${spread}, plain queue`, () =>
          consumeAck(a.consumer, NAMES.plain, config.consumeAck, config.concurrency),
        ),
      );
      rounds.add(
        await a.measure('consume_ack_fair', `consume + ack, ${spread}, fair (${FAIR_PER_KEY} in flight per key)`, () =>
          consumeAck(a.consumer, NAMES.fair, config.consumeAck, config.concurrency),
        ),
      );
    }
    return rounds.merged().map((m) => {
      const kind = m.id === FAIR_LATENCY_IDS.idle ? 'idle' : m.id === FAIR_LATENCY_IDS.noisy ? 'noisy' : null;
      if (!kind) return m;
      // The rounds' samples together (a merge sums `extra`, which percentiles do not allow).
      const l = latency(samples[kind]);
      const extra: Record<string, number> = { probes: l.samples, p50Ms: l.p50, p99Ms: l.p99, maxMs: l.max, others: m.extra.others };
      // What the noisy key still had pending when the last round ended: the least it had while measured.
      if (kind === 'noisy') extra.noisyPending = config.big - m.extra.others;
      return { ...m, extra };
    });
  });
}
