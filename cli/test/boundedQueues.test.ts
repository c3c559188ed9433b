import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempConfigDir } from './helpers/broker.js';
import { json, runCli } from './helpers/cli.js';
import { brokerForFile, type FileBroker } from './helpers/fileBroker.js';

let admin: FileBroker['admin'];
brokerForFile((started) => ({ admin } = started));

let scratch: Awaited<ReturnType<typeof tempConfigDir>>;
beforeAll(async () => {
  scratch = await tempConfigDir();
});
afterAll(() => scratch?.remove());

let files = 0;
async function scratchFile(text: string): Promise<string> {
  const file = path.join(scratch.dir, `lines-${(files += 1)}.jsonl`);
  await writeFile(file, text);
  return file;
}

describe('bounded queues from the command line', () => {
  it('queues:create --max-messages/--max-bytes/--overflow; a full queue refuses with a hint; queues:update removes a bound', async () => {
    await admin('topics:create', 'capped');
    const created = json(await admin('queues:create', 'capped-q', '--topic', 'capped', '--max-messages', '1', '--max-bytes', '1000', '--json'));
    expect(created).toMatchObject({ max_messages: 1, max_bytes: 1000, overflow: 'reject_publish' });
    expect((await admin('queues:get', 'capped-q')).stdout).toMatch(/bounds\s+1 messages, 1000 bytes \(reject_publish\)/);

    const bad = await admin('queues:create', 'bad', '--topic', 'capped', '--max-messages', '0');
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--max-messages must be a positive integer');

    expect((await admin('publish', 'capped', 'first')).exitCode).toBe(0);
    const refused = await admin('publish', 'capped', 'second');
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain('Queue capped-q is full (max_messages 1, max_bytes 1000)');
    expect(refused.stderr).toContain('queues:update QUEUE --max-messages');

    const changed = json(await admin('queues:update', 'capped-q', '--max-messages', 'none', '--overflow', 'drop_oldest', '--json'));
    // The SDK reads a null bound as absent.
    expect(changed).toMatchObject({ max_bytes: 1000, overflow: 'drop_oldest' });
    expect(changed.max_messages ?? null).toBeNull();
    expect((await admin('publish', 'capped', 'second')).exitCode).toBe(0);
  }, 60_000);

  it('queues:create --help says what reject_publish does on a shared topic and offers reject_copy', async () => {
    const help = (await runCli(['queues:create', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('one full queue stops the publish for every queue of the topic');
    expect(help).toContain('reject_copy');
    expect(help).toContain('refuses only its own copy');
  });

  it('a bounded reject_publish queue is created with a note on its topic; a reject_copy one refuses only its copy, and publish says so', async () => {
    await admin('topics:create', 'shared');
    await admin('queues:create', 'shared-main', '--topic', 'shared');
    const whole = await admin('queues:create', 'shared-whole', '--topic', 'shared', '--max-messages', '5');
    expect(whole.exitCode).toBe(0);
    expect(whole.stdout).toContain('Note: When shared-whole is full it refuses every publish to shared, for every queue bound to it; --overflow reject_copy');
    expect((await admin('queues:delete', 'shared-whole', '--yes')).exitCode).toBe(0);

    const copy = await admin('queues:create', 'shared-side', '--topic', 'shared', '--max-messages', '1', '--overflow', 'reject_copy');
    expect(copy.exitCode).toBe(0);
    expect(copy.stdout).not.toContain('Note:');
    expect((await admin('queues:get', 'shared-side')).stdout).toMatch(/bounds\s+1 messages \(reject_copy\)/);

    expect((await admin('publish', 'shared', 'first')).exitCode).toBe(0);
    const partly = await admin('publish', 'shared', 'second');
    expect(partly.exitCode).toBe(0);
    expect(partly.stdout).toMatch(/Published to shared: shared-main \S+$/m);
    expect(partly.stderr).toContain('Warning: Queue shared-side is full (max_messages 1); its copy was not stored');

    for (const transport of ['stream', 'http']) {
      const fromFile = await admin('publish', 'shared', '--file', await scratchFile('{"n":1}\n{"n":2}\n'), '--transport', transport, '--json');
      expect(fromFile.exitCode, fromFile.stderr).toBe(0);
      expect(json(fromFile)).toMatchObject({ published: 2, queues: ['shared-main'], refused_copies: { 'shared-side': 2 } });
    }
    const summed = await admin('publish', 'shared', '--file', await scratchFile('{"n":3}\n'));
    expect(summed.stderr).toContain('Warning: queue shared-side was full and refused 1 copy (overflow reject_copy)');
  }, 60_000);
});
