import http from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { newApiKey } from '../../src/auth/apiKeys.js';
import { createTestDatabase } from '../helpers/database.js';
import { spawnBroker, type BrokerProcess } from './support/brokerProcess.js';

const BUSY_CLIENTS = 16;
const IDLE_CLIENTS = 16;
const LOAD_BEFORE_SIGTERM_MS = 1_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Outcome = { kind: 'answered'; status: number; connection?: string } | { kind: 'refused' } | { kind: 'unanswered'; error: string; reused: boolean };

/** One GET on the client's own keep-alive connection; says whether it was answered, refused, or lost. */
function get(agent: http.Agent, url: URL, key: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const request = http.get({ agent, host: url.hostname, port: url.port, path: '/api/v1/topics', headers: { authorization: `Bearer ${key}` } }, (response) => {
      response.resume();
      response.on('end', () => resolve({ kind: 'answered', status: response.statusCode ?? 0, connection: response.headers.connection }));
      response.on('error', (error) => resolve({ kind: 'unanswered', error: String(error), reused: request.reusedSocket }));
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      // Refused at connect: nothing was sent, the client can go elsewhere. A new connection reset
      // before any answer is the same: it was still in the kernel's accept queue when the broker
      // closed its listener, so the broker never read from it. Anything else lost a request.
      if (error.code === 'ECONNREFUSED' || (error.code === 'ECONNRESET' && !request.reusedSocket)) resolve({ kind: 'refused' });
      else resolve({ kind: 'unanswered', error: `${error.code ?? ''} ${error.message}`, reused: request.reusedSocket });
    });
  });
}

describe('SIGTERM under load on keep-alive connections', () => {
  const adminKey = newApiKey().key;
  let broker: BrokerProcess | undefined;
  afterAll(async () => {
    await broker?.kill();
  });

  it('answers every request that reached the broker, or closes its connection before one is sent; then exits 0', async () => {
    // No rate limit: on an idle machine the clients send more than its burst, and a 429 is not what this tests.
    broker = await spawnBroker({
      DATABASE_URL: await createTestDatabase(),
      MINIQUEUE_BOOTSTRAP_ADMIN_KEY: adminKey,
      MINIQUEUE_SHUTDOWN_TIMEOUT_SECONDS: '5',
      MINIQUEUE_RATE_LIMIT_ENABLED: 'false',
    });
    const url = new URL(broker.url);
    const exited = new Promise<number | null>((resolve) => broker?.child.once('exit', (code) => resolve(code)));
    let done = false;
    void exited.then(() => (done = true));
    const outcomes: Outcome[] = [];
    // Busy clients send back to back; idle ones pause between requests, so their connection is
    // idle at any moment, as a dashboard's or a slow producer's would be.
    const client = async (pauseMs: () => number) => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        while (!done) {
          const outcome = await get(agent, url, adminKey);
          outcomes.push(outcome);
          if (outcome.kind === 'refused') return;
          await sleep(pauseMs());
        }
      } finally {
        agent.destroy();
      }
    };
    const clients = [
      ...Array.from({ length: BUSY_CLIENTS }, () => client(() => 0)),
      ...Array.from({ length: IDLE_CLIENTS }, () => client(() => 20 + Math.random() * 300)),
    ];
    await sleep(LOAD_BEFORE_SIGTERM_MS);
    const answeredBefore = outcomes.filter((outcome) => outcome.kind === 'answered').length;
    broker.child.kill('SIGTERM');
    const code = await exited;
    await Promise.all(clients);

    const answered = outcomes.filter((outcome) => outcome.kind === 'answered');
    const unanswered = outcomes.filter((outcome) => outcome.kind === 'unanswered');
    console.log(
      `${answeredBefore} answered before SIGTERM, ${answered.length - answeredBefore} after; ` +
        `${outcomes.filter((outcome) => outcome.kind === 'refused').length} refused at connect; ${unanswered.length} lost: ` +
        JSON.stringify(unanswered.slice(0, 5)),
    );
    expect(code).toBe(0);
    expect(unanswered).toEqual([]);
    expect(answered.every((outcome) => outcome.kind === 'answered' && outcome.status === 200)).toBe(true);
    expect(answered.length).toBeGreaterThan(answeredBefore);
    // Answers during the drain tell the client not to send on that connection again.
    expect(answered.some((outcome) => outcome.kind === 'answered' && outcome.connection === 'close')).toBe(true);
  });
});
