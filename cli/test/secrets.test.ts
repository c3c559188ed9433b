import { Config } from '@oclif/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBroker, tempConfigDir, type TestBroker } from './helpers/broker.js';
import { runCli, startCli, type CliResult } from './helpers/cli.js';
import { oclifOptions } from '../bin/oclif-options.js';
import { PUSH_ENV } from '@miniqueue/api/testing';

/** What an API key looks like; a 12-character key prefix (mq_ + 9) is not one. */
const KEY_PATTERN = /mq_[A-Za-z0-9_-]{20,}/g;
const PRINTS_KEYS = new Set(['clients:create', 'clients:rotate']);

let broker: TestBroker;
let config: Awaited<ReturnType<typeof tempConfigDir>>;
const keys = new Set<string>();
const runs: Array<{ id: string; args: string[]; result: CliResult }> = [];

beforeAll(async () => {
  broker = await startBroker(PUSH_ENV);
  config = await tempConfigDir();
  keys.add(broker.adminKey);
});
afterAll(async () => {
  await broker?.stop();
  await config?.remove();
});

/** Runs a command as admin from a saved profile (or with explicit flags), remembering its output. */
async function record(args: string[], extra: string[] = []): Promise<CliResult> {
  const result = await runCli([...args, ...extra], { MINIQUEUE_CONFIG_DIR: config.dir });
  runs.push({ id: args[0], args, result });
  for (const key of (result.stdout + result.stderr).match(KEY_PATTERN) ?? []) if (PRINTS_KEYS.has(args[0])) keys.add(key);
  return result;
}

describe('keys in output', () => {
  it('no command prints an API key except clients:create and clients:rotate', async () => {
    const login = ['--url', broker.url, '--api-key', broker.adminKey];
    await record(['login'], login);
    await record(['login', '--json'], login);
    await record(['whoami']);
    await record(['whoami', '--json']);
    await record(['clients:create', 'secret-shop', '--scope', 'publish:*', '--scope', 'view']);
    await record(['clients:create', 'secret-mailer', '--scope', 'consume:*', '--json']);
    await record(['clients:list']);
    await record(['clients:list', '--json']);
    await record(['clients:rotate', 'secret-shop']);
    await record(['clients:rotate', 'secret-shop', '--json']);
    await record(['clients:update', 'secret-mailer', '--scope', 'consume:*', '--scope', 'view']);
    await record(['topics:create', 'secrets']);
    await record(['topics:list', '--json']);
    await record(['queues:create', 'secrets-q', '--topic', 'secrets', '--max-retries', '0']);
    await record(['queues:list']);
    await record(['publish', 'secrets', '{"n":1}', '--json']);
    await record(['publish', 'secrets', '{"n":2}']);
    await record(['consume', 'secrets-q', '--no-ack', '--json']);
    await record(['consume', 'secrets-q']);
    await record(['messages:list', 'secrets-q', '--all']);
    const [held] = (await broker.get('/api/v1/queues/secrets-q/messages?status=UNACKED', broker.adminKey)).body.items;
    await record(['extend', held.message_id, '--seconds', '60']);
    await record(['messages:get', held.message_id, '--json']);
    await record(['nack', held.message_id, '--requeue=false', '--json']);
    await record(['dlq:list']);
    await record(['dlq:list', '--json']);
    await record(['dlq:delete', '00000000-0000-7000-8000-000000000000', '--yes']);
    await record(['dlq:replay', held.message_id]);
    await record(['dlq:replay', '--queue', 'secrets-q', '--yes', '--json']);
    const replayed = JSON.parse((await record(['consume', 'secrets-q', '--no-ack', '--json'])).stdout).messages[0];
    await record(['ack', replayed.message_id]);
    await record(['queues:get', 'secrets-q']);
    await record(['queues:update', 'secrets-q', '--acked-retention', '1', '--json']);
    await record(['smoke', '--skip', 'cors', '--skip', 'dashboard'], ['--url', broker.url]);
    await record(['bench', '--duration', '1', '--json'], ['--url', broker.url]);
    await record(['health']);
    await record(['status']);
    await record(['status', '--json']);
    await record(['queues:replay', 'secrets-q', '--since', '1h', '--dry-run']);
    await record(['queues:push:set', 'secrets-q', 'http://127.0.0.1:9/hook']);
    await record(['queues:push:get', 'secrets-q', '--json']);
    await record(['queues:push:rotate-secret', 'secrets-q', '--json']);
    await record(['queues:push:clear', 'secrets-q', '--yes']);
    await record(['queues:purge', 'secrets-q', '--yes']);
    await record(['queues:delete', 'secrets-q', '--yes', '--json']);
    await record(['topics:delete', 'secrets']);
    await record(['clients:revoke', 'secret-mailer', '--yes']);

    // Failures must not echo the key that failed either.
    const wrong = 'mq_wrongwrongwrongwrongwrongwrongwrongwrong000';
    keys.add(wrong);
    await record(['topics:list'], ['--api-key', wrong]);
    await record(['topics:list', '--json'], ['--api-key', wrong]);
    await record(['login'], ['--url', broker.url, '--api-key', wrong]);
    await record(['clients:rotate', 'nobody']);

    const tail = startCli(['tail'], { env: { MINIQUEUE_CONFIG_DIR: config.dir } });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    tail.signal('SIGINT');
    runs.push({ id: 'tail', args: ['tail'], result: await tail.done });

    await record(['logout']);

    const cli = await Config.load(await oclifOptions());
    // The plugins' commands (help, autocomplete) never see a key.
    const ids = cli.commands.filter((command) => command.pluginName === cli.pjson.name).map((command) => command.id);
    expect(new Set(runs.map((run) => run.id))).toEqual(new Set(ids));
    expect(keys.size).toBeGreaterThanOrEqual(6); // admin, wrong, 2 created, 2 rotated

    for (const { id, args, result } of runs) {
      const output = result.stdout + result.stderr;
      const printed = output.match(KEY_PATTERN) ?? [];
      if (!PRINTS_KEYS.has(id) || result.exitCode !== 0) {
        expect(printed, `${args.join(' ')} printed a key`).toEqual([]);
        for (const key of keys) expect(output.includes(key), `${args.join(' ')} printed a key`).toBe(false);
      } else {
        // Exactly the one new key, once, and none of the others.
        expect(printed, args.join(' ')).toHaveLength(1);
        expect(
          [...keys].filter((key) => output.includes(key)),
          args.join(' '),
        ).toEqual(printed);
      }
    }
  }, 120_000);
});
