import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../../src/db/embedded.js';
import { captureLogLine } from '../../helpers/logCapture.js';

const API_DIR = fileURLToPath(new URL('../../../', import.meta.url));
const START_TIMEOUT_MS = 30_000;

export interface BrokerProcess {
  url: string;
  child: ChildProcess;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** SIGKILL: no shutdown hook runs, exactly like a crash or an OOM kill. */
  kill(): Promise<void>;
}

/**
 * Runs `src/start.ts` in its own Node process, as production does, so that it can be killed
 * for real. `node --import tsx` (not npx) keeps the broker the direct child: a signal reaches
 * it and not a wrapper.
 */
export async function spawnBroker(env: Record<string, string>): Promise<BrokerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/start.ts'], {
    cwd: API_DIR,
    // A clean environment: nothing of the test runner's (NODE_OPTIONS and the like) leaks in.
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  // Its log lines (JSON, and the `[miniqueue]` notices) are searched for secrets after the file
  // (test/helpers/logScan.ts); the first start's admin key announcement is meant to show the key.
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
    for (const line of chunk.toString().split('\n')) if (/^(\{|\[miniqueue\])/.test(line)) captureLogLine(line);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`broker did not start in ${START_TIMEOUT_MS} ms:\n${output}`)), START_TIMEOUT_MS);
    const onData = () => {
      if (!output.includes('listening on')) return;
      cleanup();
      resolve();
    };
    const onExit = (code: number | null) => fail(new Error(`broker exited (${code}) before listening:\n${output}`));
    const cleanup = () => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
    };
    function fail(error: Error) {
      cleanup();
      child.kill('SIGKILL');
      reject(error);
    }
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
  });

  return {
    url: `http://127.0.0.1:${port}`,
    child,
    output: () => output,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
