import { mergeMeasurements, type Measurement } from '../measure.js';
import type { BrokerSession, RunContext } from '../session.js';
import { consumeAck } from '../scenarios/throughput.js';
import { createTopic, purge } from '../scenarios/topology.js';
import { createFilteredTopic, FAN_OUT_HEADERS, MATCHING_FILTER, publishEach, seedOrdered } from '../scenarios/orderingFilters.js';
import { PAYLOAD } from '../scenarios/topology.js';

const WIDE_FAN_OUT = 20;
const ORDERING_KEYS = 1_000;
const FAN_OUT_ROUNDS = 2;

/**
 * Fan-out to 20 queues, unfiltered and with a filter on every queue (all matching, so both store
 * 20 copies and the difference is evaluating 20 filters per publish); publish 1 per request with
 * ordering keys; consume + ack of keyed messages (1,000 keys, each claimable only after the one
 * before it was acked). Their plain counterparts (`fan_out_20`, `publish_single`, `consume_ack`)
 * are the "× baseline" column.
 */
export async function orderingAndFilterWorkloads(context: RunContext, a: BrokerSession): Promise<Measurement[]> {
  const { config } = context;
  const { concurrency } = config;
  const plain = Array.from({ length: WIDE_FAN_OUT }, (_, i) => `bench-wide-${i + 1}`);
  const filtered = Array.from({ length: WIDE_FAN_OUT }, (_, i) => `bench-filtered-${i + 1}`);
  await createFilteredTopic(a.admin, 'bench.wide', plain);
  await createFilteredTopic(a.admin, 'bench.filtered', filtered, MATCHING_FILTER);
  await createTopic(a.admin, 'bench.ordered', ['bench-ordered']);
  const workloads: Measurement[] = [];
  const fanOut = (topic: string) => async () => {
    const result = await publishEach(a.publisher, topic, config.fanOut, concurrency, () => ({ payload: PAYLOAD, headers: FAN_OUT_HEADERS }));
    return { ...result, extra: { copies: result.copies } };
  };
  // Alternating rounds (plain, filtered), so drift in the machine's speed falls on both sides.
  const plainRounds: Measurement[] = [];
  const filteredRounds: Measurement[] = [];
  for (let round = 0; round < FAN_OUT_ROUNDS; round += 1) {
    plainRounds.push(await a.measure('fan_out_20', `fan-out to ${WIDE_FAN_OUT} queues, 1 per request`, fanOut('bench.wide')));
    for (const queue of plain) await purge(a.admin, queue);
    filteredRounds.push(await a.measure('fan_out_20_filtered', `fan-out to ${WIDE_FAN_OUT} filtered queues, 1 per request`, fanOut('bench.filtered')));
    for (const queue of filtered) await purge(a.admin, queue);
  }
  workloads.push(mergeMeasurements(plainRounds), mergeMeasurements(filteredRounds));

  const ordered = await a.measure('publish_single_ordered', `publish with ordering keys (${ORDERING_KEYS}), 1 per request`, () =>
    publishEach(a.publisher, 'bench.ordered', config.publishSingle, concurrency, (step) => ({ payload: PAYLOAD, ordering_key: `key-${step % ORDERING_KEYS}` })),
  );
  workloads.push(ordered);
  await seedOrdered(a.publisher, 'bench.ordered', Math.max(0, config.consumeAck.count - ordered.messages), ORDERING_KEYS);
  workloads.push(
    await a.measure('consume_ack_ordered', `consume + ack with ordering keys (${ORDERING_KEYS}), 1 per request`, () =>
      consumeAck(a.consumer, 'bench-ordered', config.consumeAck, concurrency),
    ),
  );
  await purge(a.admin, 'bench-ordered');
  return workloads;
}
