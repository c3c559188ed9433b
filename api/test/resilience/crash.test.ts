import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { newApiKey } from '../../src/auth/apiKeys.js';
import { createTestDatabase } from '../helpers/database.js';
import { spawnBroker, type BrokerProcess } from './support/brokerProcess.js';
import { fetchClient, type FetchClient } from './support/fetchClient.js';
import { ALL_MESSAGES } from '../helpers/allMessages.js';

const TOPIC = 'crash.events';
// Two bound queues: a publish is only whole when both got their row.
const QUEUES = ['crash-a', 'crash-b'];
const PUBLISHERS = 4;
const CONSUMERS = 4;
// Every fourth publish is a batch, so a half-written batch would show too.
const BATCH_EVERY = 4;
const BATCH_SIZE = 5;
// Kill once enough has been answered that the checks mean something, or at the latest after this.
const KILL_WHEN = { published: 150, acked: 30 };
const KILL_AFTER_MS = 15_000;
const DRAIN_TIMEOUT_MS = 20_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Row {
  id: string;
  queue_name: string;
  payload: string;
  status: string;
}

/** What the clients were told before the kill; only answered requests count as promises. */
class Ledger {
  killed = false;
  inFlight = 0;
  /** payload → message ids, for every publish answered 201. */
  readonly published = new Map<string, string[]>();
  /** Payloads sent together in one batch request, answered or not. */
  readonly batches: string[][] = [];
  /** Acks answered 200: these must never be delivered again. */
  readonly acked = new Set<string>();
  readonly unexpected: string[] = [];

  /** Runs a request, counting it as in flight; false when it got no answer because of the kill. */
  async send<T>(request: () => Promise<T>): Promise<T | undefined> {
    this.inFlight += 1;
    try {
      return await request();
    } catch (error) {
      if (!this.killed) this.unexpected.push(`request failed before the kill: ${String(error)}`);
      return undefined;
    } finally {
      this.inFlight -= 1;
    }
  }
}

async function publisher(api: FetchClient, key: string, ledger: Ledger, worker: number): Promise<void> {
  for (let i = 0; !ledger.killed; i += 1) {
    const isBatch = i % BATCH_EVERY === BATCH_EVERY - 1;
    const payloads = isBatch ? Array.from({ length: BATCH_SIZE }, (_, k) => `p${worker}-${i}-${k}`) : [`p${worker}-${i}`];
    if (isBatch) ledger.batches.push(payloads);
    const response = await ledger.send(() =>
      isBatch
        ? api.request('POST', `/api/v1/topics/${TOPIC}/messages/batch`, { key, body: { messages: payloads.map((payload) => ({ payload })) } })
        : api.request('POST', `/api/v1/topics/${TOPIC}/messages`, { key, body: { payload: payloads[0] } }),
    );
    if (!response) return;
    if (response.status !== 201) {
      ledger.unexpected.push(`publish answered ${response.status}`);
      return;
    }
    const results: { message_ids: string[] }[] = isBatch ? response.body.results : [response.body];
    results.forEach((result, k) => ledger.published.set(payloads[k], result.message_ids));
  }
}

/** Consumes from both queues; acks half of what it gets and leaves the rest to lease expiry. */
async function consumer(api: FetchClient, key: string, ledger: Ledger, worker: number): Promise<void> {
  const headers = { 'miniqueue-instance': `before-${worker}` };
  for (let n = 0; !ledger.killed; n += 1) {
    const queue = QUEUES[(worker + n) % QUEUES.length];
    const consumed = await ledger.send(() => api.request('POST', `/api/v1/queues/${queue}/consume?wait_seconds=1`, { key, headers }));
    if (!consumed) return;
    if (consumed.status === 204) continue;
    if (consumed.status !== 200) {
      ledger.unexpected.push(`consume answered ${consumed.status}`);
      return;
    }
    const id: string = consumed.body.message_id;
    if (Math.floor(n / 2) % 2 === 1) continue;
    const acked = await ledger.send(() => api.request('POST', `/api/v1/messages/${id}/ack`, { key, headers }));
    if (!acked) return;
    if (acked.status === 200) ledger.acked.add(id);
    // 409: held too long (1 s lease) and already returned to the queue; not acked, so no promise.
    else if (acked.status !== 409) ledger.unexpected.push(`ack answered ${acked.status}`);
  }
}

async function readRows(databaseUrl: string): Promise<Row[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<Row>(`SELECT id, queue_name, payload, status FROM ${ALL_MESSAGES} WHERE topic_name = $1`, [TOPIC]);
    return rows;
  } finally {
    await client.end();
  }
}

/** Consumes and acks until every row is ACKED; returns the ids delivered. */
async function drain(api: FetchClient, key: string, databaseUrl: string): Promise<Set<string>> {
  const delivered = new Set<string>();
  const headers = { 'miniqueue-instance': 'after' };
  const deadline = Date.now() + DRAIN_TIMEOUT_MS;
  while (Date.now() < deadline) {
    for (const queue of QUEUES) {
      const received = await api.request('POST', `/api/v1/queues/${queue}/receive`, { key, headers, body: { max_messages: 100, wait_seconds: 1 } });
      expect(received.status).toBe(200);
      const ids: string[] = received.body.messages.map((message: { message_id: string }) => message.message_id);
      if (ids.length === 0) continue;
      ids.forEach((id) => delivered.add(id));
      const acked = await api.request('POST', '/api/v1/messages/ack', { key, headers, body: { message_ids: ids } });
      expect(acked.status).toBe(200);
    }
    const rows = await readRows(databaseUrl);
    if (rows.every((row) => row.status === 'ACKED')) return delivered;
  }
  throw new Error(`messages still not ACKED after ${DRAIN_TIMEOUT_MS} ms`);
}

describe('a broker killed with SIGKILL mid-stream', () => {
  const adminKey = newApiKey().key;
  let databaseUrl: string;
  let broker: BrokerProcess | undefined;
  const start = () =>
    spawnBroker({
      DATABASE_URL: databaseUrl,
      MINIQUEUE_BOOTSTRAP_ADMIN_KEY: adminKey,
      MINIQUEUE_SWEEP_INTERVAL_SECONDS: '1',
    });

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
  });
  afterAll(async () => {
    await broker?.kill();
  });

  it('keeps every answered publish and ack, writes nothing by halves, and delivers the rest after a restart', async () => {
    broker = await start();
    let api = fetchClient(broker.url);
    expect((await api.request('POST', '/api/v1/topics', { key: adminKey, body: { name: TOPIC } })).status).toBe(201);
    for (const name of QUEUES) {
      const created = await api.request('POST', '/api/v1/queues', {
        key: adminKey,
        body: { name, topic_name: TOPIC, ack_timeout_seconds: 1, max_retries: 100 },
      });
      expect(created.status).toBe(201);
    }
    const client = async (name: string, scopes: string[]) =>
      (await api.request('POST', '/api/v1/clients', { key: adminKey, body: { name, scopes } })).body.api_key as string;
    const publishKey = await client('crash-publisher', [`publish:${TOPIC}`]);
    const consumeKey = await client(
      'crash-consumer',
      QUEUES.map((queue) => `consume:${queue}`),
    );

    // Publish and consume at once, then kill while requests are in flight.
    const ledger = new Ledger();
    const workers = [
      ...Array.from({ length: PUBLISHERS }, (_, w) => publisher(api, publishKey, ledger, w)),
      ...Array.from({ length: CONSUMERS }, (_, w) => consumer(api, consumeKey, ledger, w)),
    ];
    const startedAt = Date.now();
    while (
      (ledger.published.size < KILL_WHEN.published || ledger.acked.size < KILL_WHEN.acked) &&
      Date.now() - startedAt < KILL_AFTER_MS &&
      ledger.unexpected.length === 0
    ) {
      await sleep(10);
    }
    const inFlightAtKill = ledger.inFlight;
    ledger.killed = true;
    await broker.kill();
    await Promise.all(workers);

    expect(ledger.unexpected).toEqual([]);
    expect(ledger.published.size).toBeGreaterThanOrEqual(KILL_WHEN.published);
    expect(ledger.acked.size).toBeGreaterThanOrEqual(KILL_WHEN.acked);
    expect(inFlightAtKill).toBeGreaterThan(0);

    // The database as the crash left it.
    const atKill = await readRows(databaseUrl);
    const byId = new Map(atKill.map((row) => [row.id, row]));
    for (const [payload, ids] of ledger.published) {
      expect(ids).toHaveLength(QUEUES.length);
      const rows = ids.map((id) => byId.get(id));
      expect(rows.map((row) => row?.payload)).toEqual(ids.map(() => payload));
      expect(rows.map((row) => row?.queue_name).sort()).toEqual(QUEUES);
    }
    // Nothing half-written: every stored payload (answered or not) has exactly one row per queue ...
    const queuesOfPayload = new Map<string, string[]>();
    for (const row of atKill) queuesOfPayload.set(row.payload, [...(queuesOfPayload.get(row.payload) ?? []), row.queue_name]);
    for (const [payload, queues] of queuesOfPayload) expect([payload, queues.sort()]).toEqual([payload, QUEUES]);
    // ... and every batch is stored whole or not at all.
    for (const batch of ledger.batches) expect([0, BATCH_SIZE]).toContain(batch.filter((payload) => queuesOfPayload.has(payload)).length);
    const ackedAtKill = new Set(atKill.filter((row) => row.status === 'ACKED').map((row) => row.id));
    for (const id of ledger.acked) expect(ackedAtKill.has(id), `acked ${id} is ACKED`).toBe(true);
    const unackedAtKill = atKill.filter((row) => row.status === 'UNACKED').map((row) => row.id);
    expect(unackedAtKill.length).toBeGreaterThan(0);

    // Restart on the same database; leases left by the dead process expire and come back.
    broker = await start();
    api = fetchClient(broker.url);
    const deliveredAfter = await drain(api, consumeKey, databaseUrl);

    const final = await readRows(databaseUrl);
    expect(final).toHaveLength(atKill.length);
    expect(final.filter((row) => row.status !== 'ACKED')).toEqual([]);
    for (const id of deliveredAfter) expect(ackedAtKill.has(id), `${id} was ACKED before the kill, delivered again`).toBe(false);
    for (const id of unackedAtKill) expect(deliveredAfter.has(id), `${id} was UNACKED at the kill`).toBe(true);
    for (const ids of ledger.published.values()) {
      for (const id of ids) expect(ackedAtKill.has(id) || deliveredAfter.has(id), `${id} delivered`).toBe(true);
    }
  });
});
