import { describe, expect, it } from 'vitest';
import { json } from './helpers/cli.js';
import { brokerForFile, type FileBroker } from './helpers/fileBroker.js';

let admin: FileBroker['admin'];
brokerForFile((started) => ({ admin } = started));

describe('expiry and dead-letter topics from the command line', () => {
  it('queues:create --message-ttl/--on-expiry/--dead-letter-topic/--dead-letter-keep; queues:update removes them; publish --expires-in', async () => {
    await admin('topics:create', 'quotes');
    await admin('topics:create', 'quotes.dead');
    const created = json(
      await admin(
        'queues:create',
        'quotes-q',
        '--topic',
        'quotes',
        '--message-ttl',
        '60',
        '--on-expiry',
        'drop',
        '--dead-letter-topic',
        'quotes.dead',
        '--dead-letter-keep',
        '--json',
      ),
    );
    expect(created).toMatchObject({ message_ttl_seconds: 60, on_expiry: 'drop', dead_letter_topic: 'quotes.dead', dead_letter_keep: true });
    const shown = (await admin('queues:get', 'quotes-q')).stdout;
    expect(shown).toMatch(/message ttl\s+60s, then drop/);
    expect(shown).toMatch(/dead letters\s+to topic quotes\.dead \(and kept in the DLQ\)/);

    const bad = await admin('queues:create', 'bad', '--topic', 'quotes', '--message-ttl', '0');
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--message-ttl must be 1-1209600 seconds');
    const loop = await admin('queues:create', 'loop', '--topic', 'quotes', '--dead-letter-topic', 'quotes');
    expect(loop.exitCode).not.toBe(0);
    expect(loop.stderr).toContain('dead_letter_topic');

    const changed = json(await admin('queues:update', 'quotes-q', '--message-ttl', 'none', '--dead-letter-topic', 'none', '--no-dead-letter-keep', '--json'));
    expect(changed.message_ttl_seconds ?? null).toBeNull();
    expect(changed.dead_letter_topic ?? null).toBeNull();
    expect(changed.dead_letter_keep).toBe(false);

    const published = json(await admin('publish', 'quotes', 'soon gone', '--expires-in', '30', '--json'));
    const message = json(await admin('messages:get', published.message_ids[0], '--json'));
    expect(Date.parse(message.expires_at) - Date.parse(message.published_at)).toBe(30_000);
  }, 60_000);
});
