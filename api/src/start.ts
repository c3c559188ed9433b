import path from 'node:path';
import { saveAdminKey } from './adminKeyFile.js';
import { loadConfig } from './config.js';
import { startRuntime, type Logger } from './runtime.js';
import { startTracing } from './tracing/sdk.js';

/** A wildcard listen address is not one a browser can open (nor an allowed origin): name localhost. */
const browsable = (url: string) => url.replace('://0.0.0.0:', '://localhost:').replace('://[::]:', '://localhost:');

async function main(): Promise<void> {
  const config = loadConfig();
  const log: Logger = {
    info: (message) => console.log(`[miniqueue] ${message}`),
    error: (message, error) => console.error(`[miniqueue] ${message}${error instanceof Error ? `: ${error.message}` : ''}`),
    newAdminKey: (key) => announceAdminKey(key, config.databaseUrl ? undefined : config.dataDir),
  };
  // Before the runtime, so that the first publish is traced; off unless OTEL_* variables ask for it.
  const tracing = await startTracing();
  if (tracing) log.info(tracing.describe);
  const runtime = await startRuntime(config, log);
  const where = runtime.embedded ? `embedded PostgreSQL in ${runtime.embedded.clusterDir}` : 'DATABASE_URL';
  log.info(`listening on ${browsable(runtime.url)} (${where})`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal}: finishing in-flight requests, then stopping`);
    try {
      await runtime.stop();
      await tracing?.stop().catch((error: unknown) => log.error('tracing did not flush', error));
      process.exit(0);
    } catch (error) {
      log.error('shutdown failed', error);
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

/**
 * The first start on an empty database made an admin key: print it once. On the embedded
 * database it is also kept in the data directory (mode 0600), beside the database files. The key
 * is printed first: a file that cannot be written safely is refused, and the key is not lost.
 */
async function announceAdminKey(key: string, dataDir?: string): Promise<void> {
  process.stdout.write(['', 'Created the client bootstrap-admin (scope admin). Its API key, shown only now:', '', `  ${key}`, '', ''].join('\n'));
  if (!dataDir) return;
  const file = path.resolve(dataDir, 'admin-key');
  try {
    await saveAdminKey(file, key);
    process.stdout.write(`It is also saved in ${file}\n\n`);
  } catch (error) {
    console.error(`[miniqueue] the admin key was NOT saved: ${error instanceof Error ? error.message : error}`);
  }
}

main().catch((error) => {
  console.error('[miniqueue] failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
