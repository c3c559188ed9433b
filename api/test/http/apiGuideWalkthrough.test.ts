import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';

const run = promisify(execFile);
let broker: TestBroker;
beforeAll(async () => {
  broker = await startTestBroker({ listen: true });
});
afterAll(() => broker?.stop());

/** The first sh block after "A walk-through with curl" in docs/api-guide.md, as a reader copies it. */
async function walkthrough(): Promise<string> {
  const guide = await readFile(new URL('../../../docs/api-guide.md', import.meta.url), 'utf8');
  const from = guide.indexOf('A walk-through with curl');
  const block = /```sh\n([\s\S]*?)```/.exec(guide.slice(from));
  if (from < 0 || !block) throw new Error('docs/api-guide.md has no curl walk-through');
  return block[1]!;
}

describe('the curl walk-through of docs/api-guide.md', () => {
  it('runs, and runs again in the same shell against the same broker, acking a message each time', async () => {
    // The broker of this test, and its admin key, where the guide points at `npm start`'s.
    const script = (await walkthrough()).replace(/^B=.*$/m, `B=${broker.url}`).replace(/^ADMIN=.*$/m, `ADMIN=${broker.adminKey}`);
    // `set -e` and a last line that prints the ack's answer: each run must reach its end and ack.
    for (const time of ['first', 'second']) {
      const { stdout } = await run('bash', ['-euc', `${script}\necho; echo "acked: $ID"`], { timeout: 30_000 }).catch(
        (error: { code: number; stdout: string; stderr: string }) => {
          throw new Error(`${time} run: exit ${error.code}\n${error.stdout}\n${error.stderr}`);
        },
      );
      const id = /acked: (\S+)$/.exec(stdout.trimEnd())?.[1];
      expect(id, `${time} run:\n${stdout}`).toMatch(/^[0-9a-f-]{36}$/);
      expect(stdout, `${time} run`).toContain(`{"message_id":"${id}","status":"ACKED"}`);
    }
  });
});
