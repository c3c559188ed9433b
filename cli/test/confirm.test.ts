import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestBroker } from './helpers/broker.js';
import { CLI_ROOT, json } from './helpers/cli.js';
import { brokerForFile, type FileBroker } from './helpers/fileBroker.js';

/** util-linux `script` runs a command on a pseudo-terminal: the only way to be asked. */
const hasScript = (() => {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

let broker: TestBroker;
let admin: FileBroker['admin'];
brokerForFile((started) => ({ broker, admin } = started));

/** Runs a command on a terminal, typing `answer` at its question; the terminal's text and the exit code. */
function onTerminal(args: string[], answer: string): Promise<{ output: string; exitCode: number }> {
  const command = [process.execPath, path.join(CLI_ROOT, 'bin', 'run.js'), ...args].map((word) => `'${word}'`).join(' ');
  const env = { ...process.env, MINIQUEUE_URL: broker.url, MINIQUEUE_API_KEY: broker.adminKey, NODE_ENV: 'production' };
  const child = spawn('script', ['--quiet', '--return', '--command', command, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stdin.end(`${answer}\n`);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ output, exitCode: code ?? 1 }));
  });
}

/** A message of its own queue, rejected for good, so that dlq:delete has something to ask about. */
let deadId: string;
async function deadMessage(): Promise<string> {
  await admin('topics:create', 'asked-dead');
  await admin('queues:create', 'asked-dead-q', '--topic', 'asked-dead');
  await admin('publish', 'asked-dead', 'poison');
  const [message] = json(await admin('consume', 'asked-dead-q', '--no-ack', '--json')).messages;
  await broker.post(`/api/v1/messages/${message.message_id}/nack`, { requeue: false }, broker.adminKey);
  return message.message_id;
}
const deadIds = async () => json<{ items: Array<{ message_id: string }> }>(await admin('dlq:list', '--json')).items.map((m) => m.message_id);

const queueNames = async () => json<Array<{ name: string }>>(await admin('queues:list', '--json')).map((queue) => queue.name);
const clientNames = async () => json<Array<{ name: string }>>(await admin('clients:list', '--json')).map((client) => client.name);

describe.skipIf(!hasScript)('destructive commands on a terminal', () => {
  beforeAll(async () => {
    await admin('topics:create', 'asked');
    await admin('queues:create', 'asked-q', '--topic', 'asked');
    await admin('clients:create', 'asked-client', '--scope', 'view');
    deadId = await deadMessage();
  });

  it('ask first: "n" (or just Enter) changes nothing', async () => {
    await admin('publish', 'asked', '{"n":1}');
    for (const [args, answer, declined] of [
      [['queues:purge', 'asked-q'], 'n', 'Nothing purged.'],
      [['queues:delete', 'asked-q'], '', 'Nothing deleted.'],
      [['clients:revoke', 'asked-client'], 'no', 'Nothing revoked.'],
      [['dlq:delete', deadId], 'n', 'Nothing deleted.'],
      [['dlq:replay', '--queue', 'asked-dead-q'], 'n', 'Nothing replayed.'],
      [['dlq:delete', '--queue', 'asked-dead-q'], 'n', 'Nothing deleted.'],
    ] as const) {
      const result = await onTerminal([...args], answer);
      expect(result.output).toContain('[y/N] ');
      expect(result.output).toContain(declined);
      expect(result.exitCode).toBe(0);
    }
    expect(json(await admin('messages:list', 'asked-q', '--json')).items).toHaveLength(1);
    expect(await queueNames()).toContain('asked-q');
    expect(await clientNames()).toContain('asked-client');
    expect(await deadIds()).toContain(deadId);
  });

  it('"y" does it', async () => {
    expect((await onTerminal(['queues:purge', 'asked-q'], 'y')).output).toContain('Purged 1 message from asked-q.');
    expect((await onTerminal(['queues:delete', 'asked-q'], 'yes')).output).toContain('Deleted queue asked-q.');
    expect((await onTerminal(['clients:revoke', 'asked-client'], 'Y')).output).toContain('Revoked client asked-client.');
    expect((await onTerminal(['dlq:delete', deadId], 'y')).output).toContain(`Deleted dead message ${deadId}.`);
    expect(await deadIds()).not.toContain(deadId);
    expect(await queueNames()).not.toContain('asked-q');
    expect(await clientNames()).not.toContain('asked-client');
  });
});
