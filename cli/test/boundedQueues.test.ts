import { describe, expect, it } from 'vitest';
import { json } from './helpers/cli.js';
import { brokerForFile, type FileBroker } from './helpers/fileBroker.js';

let admin: FileBroker['admin'];
brokerForFile((started) => ({ admin } = started));

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
});
