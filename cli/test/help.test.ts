import { Config } from '@oclif/core';
import { describe, expect, it } from 'vitest';
import { runCli, spawnCli } from './helpers/cli.js';
import { oclifOptions } from '../bin/oclif-options.js';

const COMMANDS = [
  'clients:create',
  'clients:list',
  'clients:revoke',
  'clients:rotate',
  'consume',
  'dlq:list',
  'dlq:replay',
  'login',
  'logout',
  'messages:list',
  'publish',
  'queues:create',
  'queues:delete',
  'queues:list',
  'queues:purge',
  'status',
  'tail',
  'topics:create',
  'topics:delete',
  'topics:list',
  'whoami',
];

describe('help', () => {
  it('`miniqueue --help` runs from the sources, with no build step, and lists every topic and command', async () => {
    const result = await spawnCli(['--help']);
    expect(result.exitCode).toBe(0);
    for (const name of ['clients', 'topics', 'queues', 'messages', 'dlq', 'publish', 'consume', 'status', 'tail', 'login', 'whoami']) {
      expect(result.stdout).toMatch(new RegExp(`^\\s+${name}\\s`, 'm'));
    }
  });

  it('has exactly the commands of the issue, each with a summary, examples and --json', async () => {
    const config = await Config.load(await oclifOptions());
    expect(config.commands.map((command) => command.id).sort()).toEqual(COMMANDS);
    for (const command of config.commands) {
      expect(command.summary, command.id).toBeTruthy();
      expect(command.examples?.length, command.id).toBeGreaterThan(0);
      expect(command.flags.json, command.id).toBeDefined();
    }
  });

  it('shows a command with its flags, connection flags and examples', async () => {
    const result = await runCli(['queues:create', '--help']);
    expect(result.stdout).toContain('--ack-timeout');
    expect(result.stdout).toContain('--max-retries');
    expect(result.stdout).toContain('[env: MINIQUEUE_API_KEY]');
    expect(result.stdout).toContain('$ miniqueue queues:create email-queue --topic order.placed');
  });
});
