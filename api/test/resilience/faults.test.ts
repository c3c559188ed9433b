import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { newApiKey } from '../../src/auth/apiKeys.js';
import { ALL_MESSAGES } from '../helpers/allMessages.js';
import { createTestDatabase } from '../helpers/database.js';
import { terminateBackends } from './support/backends.js';
import { spawnBroker, type BrokerProcess } from './support/brokerProcess.js';
import { fetchClient, type FetchClient, type FetchResponse } from './support/fetchClient.js';

/**
 * Fault injection: two broker processes on one database under publish and consume load, while
 * PostgreSQL's backends are terminated and one broker is SIGKILLed and restarted. Afterwards every
 * promise made to a client is checked against the database: every publish answered 201 is stored
 * whole and delivered, every key stored once, nothing delivered again after its ack was confirmed.
 */

const TOPIC = 'faults.events';
const QUEUES = ['faults-a', 'faults-b'];
const PUBLISHERS = 4;
const CONSUMERS = 4;
const ACK_TIMEOUT_SECONDS = 2;
const DRAIN_TIMEOUT_MS = 30_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Target {
  name: string;
  broker: BrokerProcess;
  api: FetchClient;
  /** Set from the moment it is killed until it is back: requests to it may go unanswered. */
  down: boolean;
}

/** What clients were told. Only answered requests are promises. */
class Ledger {
  stop = false;
  /** payload → message ids, for every publish answered 201 */
  readonly published = new Map<string, string[]>();
  readonly keyed = new Set<string>();
  /** id → when its ack was answered 200 */
  readonly ackedAt = new Map<string, number>();
  /** every delivery: id and when the request that got it was sent */
  readonly deliveries: { id: string; sentAt: number }[] = [];
  readonly statuses = new Map<string, number>();
  readonly unexpected: string[] = [];
  lost = 0;

  count(what: string, status: number | 'lost') {
    const key = `${what} ${status}`;
    this.statuses.set(key, (this.statuses.get(key) ?? 0) + 1);
  }
}

class Cluster {
  readonly targets: Target[] = [];
  constructor(private readonly env: Record<string, string>) {}

  async add(name: string): Promise<Target> {
    const broker = await spawnBroker(this.env);
    const target = { name, broker, api: fetchClient(broker.url), down: false };
    this.targets.push(target);
    return target;
  }

  /** The n-th broker that is up, round-robin. */
  pick(n: number): Target {
    const up = this.targets.filter((target) => !target.down);
    return up[n % up.length];
  }

  async kill(target: Target): Promise<void> {
    target.down = true;
    await target.broker.kill();
  }

  async restart(target: Target): Promise<void> {
    target.broker = await spawnBroker(this.env);
    target.api = fetchClient(target.broker.url);
    target.down = false;
  }
}

/** One request, counted; undefined when the broker it went to was being killed and did not answer. */
async function send(ledger: Ledger, what: string, target: Target, request: (api: FetchClient) => Promise<FetchResponse>): Promise<FetchResponse | undefined> {
  try {
    const response = await request(target.api);
    ledger.count(what, response.status);
    return response;
  } catch (error) {
    ledger.count(what, 'lost');
    if (!target.down) ledger.unexpected.push(`${what} to ${target.name} unanswered while it was up: ${String(error)}`);
    return undefined;
  }
}

const BATCH_SIZE = 3;

/**
 * Publishes in turn: a single message with an Idempotency-Key, one without, and a batch whose
 * messages carry keys (one transaction). Keyed publishes are retried with the same keys until
 * answered; one without a key is not (a 503 or a lost answer promises nothing).
 */
async function publisher(cluster: Cluster, key: string, ledger: Ledger, worker: number): Promise<void> {
  for (let i = 0; !ledger.stop; i += 1) {
    const kind = (['keyed', 'plain', 'batch'] as const)[i % 3];
    const payloads = kind === 'batch' ? Array.from({ length: BATCH_SIZE }, (_, k) => `b${worker}-${i}-${k}`) : [`${kind[0]}${worker}-${i}`];
    if (kind !== 'plain') payloads.forEach((payload) => ledger.keyed.add(payload));
    for (let attempt = 0; ; attempt += 1) {
      const response = await send(ledger, 'publish', cluster.pick(worker + attempt), (api) =>
        kind === 'batch'
          ? api.request('POST', `/api/v1/topics/${TOPIC}/messages/batch`, {
              key,
              body: { messages: payloads.map((payload) => ({ payload, idempotency_key: payload })) },
            })
          : api.request('POST', `/api/v1/topics/${TOPIC}/messages`, {
              key,
              body: { payload: payloads[0] },
              headers: kind === 'keyed' ? { 'idempotency-key': payloads[0] } : {},
            }),
      );
      // 200: a repeated single publish whose first answer was lost after its commit.
      if (response?.status === 201 || (kind === 'keyed' && response?.status === 200 && response.body.duplicate)) {
        const results: { message_ids: string[] }[] = kind === 'batch' ? response.body.results : [response.body];
        results.forEach((result, k) => ledger.published.set(payloads[k], result.message_ids));
        break;
      }
      if (response && response.status !== 503) ledger.unexpected.push(`publish answered ${response.status}`);
      if (kind === 'plain' || ledger.stop) break;
      await sleep(50);
    }
  }
}

/** Consumes from both queues through both brokers; leaves every fourth message to lease expiry. */
async function consumer(cluster: Cluster, key: string, ledger: Ledger, worker: number): Promise<void> {
  const headers = { 'miniqueue-instance': `worker-${worker}` };
  for (let n = 0; !ledger.stop; n += 1) {
    const queue = QUEUES[(worker + n) % QUEUES.length];
    const sentAt = Date.now();
    const consumed = await send(ledger, 'consume', cluster.pick(worker + n), (api) =>
      api.request('POST', `/api/v1/queues/${queue}/consume?wait_seconds=1`, { key, headers }),
    );
    if (!consumed || consumed.status === 204 || consumed.status === 503) continue;
    if (consumed.status !== 200) {
      ledger.unexpected.push(`consume answered ${consumed.status}`);
      continue;
    }
    const id: string = consumed.body.message_id;
    ledger.deliveries.push({ id, sentAt });
    if (n % 4 === 3) continue;
    const acked = await send(ledger, 'ack', cluster.pick(worker + n + 1), (api) => api.request('POST', `/api/v1/messages/${id}/ack`, { key, headers }));
    if (acked?.status === 200) ledger.ackedAt.set(id, Date.now());
    // 409: the lease ran out first; 503 or no answer: not known to be acked. Neither is a promise.
    else if (acked && acked.status !== 409 && acked.status !== 503) ledger.unexpected.push(`ack answered ${acked.status}`);
  }
}

/** Receives and acks through a broker until every row is ACKED, recording each delivery. */
async function drain(target: Target, key: string, ledger: Ledger, db: pg.Client): Promise<void> {
  const headers = { 'miniqueue-instance': 'drain' };
  const deadline = Date.now() + DRAIN_TIMEOUT_MS;
  while (Date.now() < deadline) {
    for (const queue of QUEUES) {
      const sentAt = Date.now();
      const received = await target.api.request('POST', `/api/v1/queues/${queue}/receive`, { key, headers, body: { max_messages: 100, wait_seconds: 1 } });
      expect(received.status).toBe(200);
      const ids: string[] = received.body.messages.map((message: { message_id: string }) => message.message_id);
      if (ids.length === 0) continue;
      for (const id of ids) ledger.deliveries.push({ id, sentAt });
      const acked = await target.api.request('POST', '/api/v1/messages/ack', { key, headers, body: { message_ids: ids } });
      expect(acked.status).toBe(200);
    }
    const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${ALL_MESSAGES} WHERE topic_name = $1 AND status <> 'ACKED'`, [TOPIC]);
    if (rows[0].n === 0) return;
  }
  throw new Error(`messages still not ACKED after ${DRAIN_TIMEOUT_MS} ms`);
}

async function terminateRounds(db: pg.Client, rounds: number): Promise<number> {
  let terminated = 0;
  for (let round = 0; round < rounds; round += 1) {
    terminated += await terminateBackends(db, 'miniqueue%');
    await sleep(150);
  }
  return terminated;
}

describe('fault injection: backends terminated and a broker killed under load', () => {
  const adminKey = newApiKey().key;
  let cluster: Cluster | undefined;
  afterAll(async () => {
    for (const target of cluster?.targets ?? []) await target.broker.kill();
  });

  it('keeps every promise made to a client', async () => {
    const databaseUrl = await createTestDatabase();
    cluster = new Cluster({
      DATABASE_URL: databaseUrl,
      MINIQUEUE_BOOTSTRAP_ADMIN_KEY: adminKey,
      MINIQUEUE_SWEEP_INTERVAL_SECONDS: '1',
      MINIQUEUE_RATE_LIMIT_ENABLED: 'false',
    });
    const [a, b] = await Promise.all([cluster.add('A'), cluster.add('B')]);
    const setup = a.api;
    expect((await setup.request('POST', '/api/v1/topics', { key: adminKey, body: { name: TOPIC } })).status).toBe(201);
    for (const name of QUEUES) {
      const body = { name, topic_name: TOPIC, ack_timeout_seconds: ACK_TIMEOUT_SECONDS, max_retries: 100 };
      expect((await setup.request('POST', '/api/v1/queues', { key: adminKey, body })).status).toBe(201);
    }
    const clientKey = async (name: string, scopes: string[]) =>
      (await setup.request('POST', '/api/v1/clients', { key: adminKey, body: { name, scopes } })).body.api_key as string;
    const publishKey = await clientKey('faults-publisher', [`publish:${TOPIC}`]);
    const consumeKey = await clientKey(
      'faults-consumer',
      QUEUES.map((queue) => `consume:${queue}`),
    );

    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    const ledger = new Ledger();
    const workers = [
      ...Array.from({ length: PUBLISHERS }, (_, w) => publisher(cluster as Cluster, publishKey, ledger, w)),
      ...Array.from({ length: CONSUMERS }, (_, w) => consumer(cluster as Cluster, consumeKey, ledger, w)),
    ];

    // The faults, one after another, with load in between.
    await sleep(1_500);
    let terminated = await terminateRounds(db, 3);
    await sleep(1_500);
    await cluster.kill(b);
    await sleep(1_500);
    await cluster.restart(b);
    await sleep(1_000);
    terminated += await terminateRounds(db, 3);
    await sleep(1_500);
    ledger.stop = true;
    await Promise.all(workers);

    expect(a.broker.child.exitCode, `broker A exited:\n${a.broker.output()}`).toBeNull();
    expect(b.broker.child.exitCode, `broker B exited after its restart:\n${b.broker.output()}`).toBeNull();
    await drain(a, consumeKey, ledger, db);

    const { rows } = await db.query<{ id: string; payload: string; queue_name: string; status: string }>(
      `SELECT id, payload, queue_name, status FROM ${ALL_MESSAGES} WHERE topic_name = $1`,
      [TOPIC],
    );
    await db.end();
    console.log(
      `${terminated} backends terminated, one broker killed; ${ledger.published.size} publishes answered 201 ` +
        `(${[...ledger.published.keys()].filter((payload) => ledger.keyed.has(payload)).length} keyed), ` +
        `${ledger.ackedAt.size} acks confirmed, ${ledger.deliveries.length} deliveries, ${rows.length} rows; ` +
        JSON.stringify(Object.fromEntries([...ledger.statuses].sort())),
    );
    expect(ledger.unexpected).toEqual([]);
    expect(ledger.published.size).toBeGreaterThan(50);
    expect(ledger.ackedAt.size).toBeGreaterThan(20);

    const byId = new Map(rows.map((row) => [row.id, row]));
    const rowsOfPayload = new Map<string, typeof rows>();
    for (const row of rows) rowsOfPayload.set(row.payload, [...(rowsOfPayload.get(row.payload) ?? []), row]);
    // Every publish answered 201 is stored, under the ids it was answered with, one row per queue.
    for (const [payload, ids] of ledger.published) {
      expect([payload, ids.map((id) => byId.get(id)?.payload)]).toEqual([payload, ids.map(() => payload)]);
      expect([payload, ids.map((id) => byId.get(id)?.queue_name).sort()]).toEqual([payload, QUEUES]);
    }
    // Nothing stored by halves or twice: one row per queue for every stored payload, keyed or not.
    for (const [payload, stored] of rowsOfPayload) expect([payload, stored.map((row) => row.queue_name).sort()]).toEqual([payload, QUEUES]);
    // Everything was delivered and acked in the end.
    expect(rows.filter((row) => row.status !== 'ACKED')).toEqual([]);
    const delivered = new Set(ledger.deliveries.map((delivery) => delivery.id));
    for (const row of rows) expect(delivered.has(row.id), `${row.id} delivered`).toBe(true);
    // No message was delivered by a request sent after its ack had been confirmed.
    const late = ledger.deliveries.filter(({ id, sentAt }) => sentAt > (ledger.ackedAt.get(id) ?? Infinity));
    expect(late).toEqual([]);
  }, 120_000);
});
