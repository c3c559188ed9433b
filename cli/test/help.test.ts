import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Config } from '@oclif/core';
import { describe, expect, it } from 'vitest';
import { runCli, spawnCli } from './helpers/cli.js';
import { oclifOptions } from '../bin/oclif-options.js';

const COMMANDS = [
  'ack',
  'bench',
  'clients:create',
  'clients:list',
  'clients:revoke',
  'clients:rotate',
  'clients:update',
  'consume',
  'dlq:delete',
  'dlq:list',
  'dlq:replay',
  'extend',
  'health',
  'login',
  'logout',
  'messages:get',
  'messages:list',
  'nack',
  'publish',
  'queues:create',
  'queues:delete',
  'queues:get',
  'queues:list',
  'queues:purge',
  'queues:push:clear',
  'queues:push:get',
  'queues:push:rotate-secret',
  'queues:push:set',
  'queues:replay',
  'queues:update',
  'smoke',
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

  it('has exactly these commands, each with a summary, examples and --json', async () => {
    const config = await Config.load(await oclifOptions());
    const own = config.commands.filter((command) => command.pluginName === config.pjson.name);
    expect(own.map((command) => command.id).sort()).toEqual(COMMANDS);
    for (const command of own) {
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
    expect(result.stdout).toContain('$ miniqueue queues create email-queue --topic order.placed');
  });

  it('`miniqueue help TOPIC COMMAND` works like --help', async () => {
    const result = await spawnCli(['help', 'queues', 'update']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('--acked-retention');
  });
});

describe('topics with a space', () => {
  it('`miniqueue queues list` runs the command (it does not print the topic help)', async () => {
    const result = await spawnCli(['queues', 'list', '--json', '--url', 'http://127.0.0.1:9', '--api-key', 'mq_x']);
    expect(result.exitCode).toBe(1);
    expect(JSON.parse(result.stdout).error.message).toContain('Cannot reach the broker at http://127.0.0.1:9');
  });

  it('the colon form still works', async () => {
    const result = await runCli(['queues:list', '--url', 'http://127.0.0.1:9', '--api-key', 'mq_x']);
    expect(result.stderr).toContain('Cannot reach the broker');
  });
});

describe('a mistyped command', () => {
  it('suggests the nearest command and exits 127', async () => {
    const result = await spawnCli(['queus', 'lst']);
    expect(result.exitCode).toBe(127);
    expect(result.stderr).toBe(
      'Error: queus lst is not a miniqueue command.\nHint: Did you mean `miniqueue queues list`? `miniqueue help` lists every command.\n',
    );
  });
});

describe('shell completion', () => {
  it('`autocomplete script bash` and the cached completions know the commands', async () => {
    const cache = await mkdtemp(path.join(os.tmpdir(), 'miniqueue-completion-'));
    try {
      const env = { XDG_CACHE_HOME: cache };
      const script = await spawnCli(['autocomplete', 'script', 'bash'], { env });
      expect(script.exitCode).toBe(0);
      expect(script.stdout).toContain('autocomplete/bash_setup');
      const refreshed = await spawnCli(['autocomplete', '--refresh-cache'], { env });
      expect(refreshed.exitCode).toBe(0);
      const setup = await readFile(path.join(cache, 'miniqueue', 'autocomplete', 'functions', 'bash', 'miniqueue.bash'), 'utf8');
      expect(setup).toMatch(/^queues:update .*--acked-retention/m);
      expect(setup).toMatch(/^nack .*--requeue/m);
    } finally {
      await rm(cache, { recursive: true, force: true });
    }
  });
});
