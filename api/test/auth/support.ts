import { inspect } from 'node:util';
import { loadConfig } from '../../src/config.js';
import { createPool } from '../../src/db/pool.js';
import { ensureAdmin } from '../../src/auth/bootstrap.js';
import { newApiKey } from '../../src/auth/apiKeys.js';
import { createLogger } from '../../src/logging.js';
import { NotificationBus } from '../../src/realtime/bus.js';
import { createServer } from '../../src/server.js';
import { createTestDatabase } from '../helpers/database.js';
import { httpClient } from '../helpers/http.js';
import type { TestBroker, TestBrokerOptions } from '../helpers/broker.js';

/** Every line the broker logs (pino at trace) and every hapi log event, as text. */
export type LogLines = string[];

/**
 * Like startTestBroker, but every log line of the server is kept in `logs`, so a test can prove
 * that no secret ever reaches a log.
 */
export async function startLoggedBroker(options: TestBrokerOptions & { logs: LogLines }): Promise<TestBroker> {
  const databaseUrl = options.databaseUrl ?? (await createTestDatabase());
  const adminKey = options.adminKey ?? newApiKey().key;
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'trace',
    MINIQUEUE_SHUTDOWN_TIMEOUT_SECONDS: '5',
    ...options.env,
  });
  const pool = createPool(databaseUrl, config.dbPoolSize);
  await ensureAdmin(pool, adminKey);
  const bus = new NotificationBus(databaseUrl);
  await bus.start();
  const logger = createLogger('trace', { write: (line: string) => void options.logs.push(line) });
  const broker = await createServer({ config, pool, bus, logger });
  broker.server.events.on({ name: 'request', channels: ['app', 'error', 'internal'] }, (_request, event) => {
    options.logs.push(inspect(event, { depth: 6 }));
  });
  broker.server.events.on('log', (event) => void options.logs.push(inspect(event, { depth: 6 })));
  if (options.listen) await broker.server.start();
  else await broker.server.initialize();
  const http = httpClient(broker.server);
  return {
    ...http,
    broker,
    pool,
    config,
    databaseUrl,
    adminKey,
    url: options.listen ? `http://127.0.0.1:${broker.server.info.port}` : '',
    async clientKey(name, scopes) {
      const response = await http.post('/api/v1/clients', { name, scopes }, adminKey);
      if (response.status !== 201) throw new Error(`client ${name}: ${response.status} ${JSON.stringify(response.body)}`);
      return (response.body as { api_key: string }).api_key;
    },
    async stop() {
      await broker.stop();
      await bus.stop();
      await pool.end();
    },
  };
}

/** Our secrets: a prefix, then 256 bits in base64url (43 characters). */
const SECRET = /\b(?:mq|mqs|lc|wst)_[A-Za-z0-9_-]{43}/;

/** Throws when any log line holds a secret: one of ours by its shape, or any of `known` verbatim. */
export function expectNoSecretsIn(logs: LogLines, known: string[] = []): void {
  if (logs.length === 0) throw new Error('no log lines were captured: the capture is broken');
  for (const line of logs) {
    const found = SECRET.exec(line)?.[0] ?? known.find((secret) => line.includes(secret));
    if (found) throw new Error(`a log line holds the secret ${found.slice(0, 8)}…: ${line.slice(0, 300)}`);
  }
}
