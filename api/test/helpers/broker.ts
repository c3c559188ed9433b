import { loadConfig, type Config } from '../../src/config.js';
import { createPool, type Pool } from '../../src/db/pool.js';
import { ensureAdmin } from '../../src/auth/bootstrap.js';
import { newApiKey } from '../../src/auth/apiKeys.js';
import { inspect } from 'node:util';
import { createLogger } from '../../src/logging.js';
import { NotificationBus } from '../../src/realtime/bus.js';
import { createServer, type Broker } from '../../src/server.js';
import { createBrokerCore } from '../../src/brokerCore.js';
import { reportServiceHealth } from '../../src/http/routes/ops.js';
import { serviceOf } from '../../src/lifecycle/lifecycle.js';
import { ServiceGroup } from '../../src/lifecycle/serviceGroup.js';
import { createTestDatabase } from './database.js';
import { httpClient, type HttpClient } from './http.js';
import { captureLogLine } from './logCapture.js';

export interface TestBroker extends HttpClient {
  broker: Broker;
  pool: Pool;
  config: Config;
  databaseUrl: string;
  adminKey: string;
  /** Base URL when started with `listen: true`. */
  url: string;
  /** Registers a client with these scopes and returns its key. */
  clientKey(name: string, scopes: string[]): Promise<string>;
  stop(): Promise<void>;
}

export interface TestBrokerOptions {
  /** Reuse a database (a second instance of the same broker); default: a fresh one. */
  databaseUrl?: string;
  /** Use this admin key (give the first instance's key to a second instance on its database). */
  adminKey?: string;
  listen?: boolean;
  env?: Record<string, string>;
  /** Keep every log line (pino at trace, and hapi's log events) here, to check what reaches logs. */
  logs?: string[];
}

/** A real broker on a real database, as in production but built in-process. */
export async function startTestBroker(options: TestBrokerOptions = {}): Promise<TestBroker> {
  const databaseUrl = options.databaseUrl ?? (await createTestDatabase());
  const adminKey = options.adminKey ?? newApiKey().key;
  const logs = options.logs;
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'trace',
    MINIQUEUE_SHUTDOWN_TIMEOUT_SECONDS: '5',
    ...options.env,
  });
  // Started and stopped in the order the runtime uses (src/runtime.ts).
  const services = new ServiceGroup();
  const pool = createPool(databaseUrl, config.dbPoolSize, config.dbConnectionWaitMs, config.dbLockTimeoutMs, {
    statementTimeoutMs: config.dbStatementTimeoutMs,
    commitTimeoutMs: config.dbCommitTimeoutMs,
  });
  await services.start(serviceOf('database-pool', { stop: () => pool.end() }));
  await ensureAdmin(pool, adminKey);
  const bus = await services.start(new NotificationBus(databaseUrl));
  // Every line, at every level, of every broker: logScan.ts searches them for secrets after each file.
  const logger = createLogger('trace', {
    write: (line: string) => {
      captureLogLine(line);
      logs?.push(line);
    },
  });
  const core = createBrokerCore({
    config,
    pool,
    bus,
    logError: (message, error) => logger.error({ err: error }, message),
    log: (level, message, fields) => logger[level](fields, message),
  });
  const broker = await createServer({ config, pool, bus, core, logger, listen: options.listen === true });
  if (logs) {
    broker.server.events.on({ name: 'request', channels: ['app', 'error', 'internal'] }, (_request, event) => {
      logs.push(inspect(event, { depth: 6 }));
    });
    broker.server.events.on('log', (event) => void logs.push(inspect(event, { depth: 6 })));
  }
  reportServiceHealth(broker.server, () => services.health());
  await services.startAll([...core.services, ...broker.services, broker.http]);
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
    stop: () => services.stop(),
  };
}
