import { describe, expect, it } from 'vitest';
import { parseSince } from '../src/lib/since.js';
import { json } from './helpers/cli.js';
import { brokerForFile, type FileBroker } from './helpers/fileBroker.js';

let admin: FileBroker['admin'];
brokerForFile((started) => ({ admin } = started));

describe('queues replay', () => {
  it('counts first, asks, then replays acked messages as new ones', async () => {
    await admin('topics:create', 'replayed');
    await admin('queues:create', 'replayed-q', '--topic', 'replayed');
    await admin('publish', 'replayed', '{"n":1}');
    await admin('publish', 'replayed', '{"n":2}');
    expect((await admin('consume', 'replayed-q')).exitCode).toBe(0);
    expect((await admin('consume', 'replayed-q')).exitCode).toBe(0);

    const dry = await admin('queues', 'replay', 'replayed-q', '--since', '1h', '--dry-run');
    expect(dry.exitCode).toBe(0);
    // The one time format of the CLI (as formatTime prints it), not an ISO string of its own.
    expect(dry.stdout).toMatch(/^Would replay 2 acked messages of replayed-q published since \d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ\.\n$/);
    // Not on a terminal and without --yes: refused, nothing replayed.
    const unconfirmed = await admin('queues:replay', 'replayed-q', '--since', '1h');
    expect(unconfirmed.exitCode).toBe(2);
    expect(json(await admin('messages:list', 'replayed-q', '--status', 'PENDING', '--json')).items).toHaveLength(0);

    const done = json(await admin('queues:replay', 'replayed-q', '--since', '1h', '--yes', '--json'));
    expect(done).toMatchObject({ queue: 'replayed-q', dry_run: false, messages: 2 });
    const pending = json<{ items: Array<{ headers: Record<string, string> }> }>(
      await admin('messages:list', 'replayed-q', '--status', 'PENDING', '--json'),
    ).items;
    expect(pending.map((m) => m.headers['miniqueue-replay-id'])).toEqual([done.replay_id, done.replay_id]);

    const afterFirst = json(await admin('queues:replay', 'replayed-q', '--after-id', pending[0].headers['miniqueue-replay-of'], '--dry-run', '--json'));
    expect(afterFirst.messages).toBe(1);
  });

  it('a start earlier than the history keeps is a conflict that says how far back it goes', async () => {
    const early = await admin('queues:replay', 'replayed-q', '--since', '2d', '--dry-run');
    expect(early.exitCode).toBe(5);
    expect(early.stderr).toMatch(/keeps acked messages for 24 hours: replays can start at \S+ at the earliest/);
    expect((await admin('queues:replay', 'replayed-q')).exitCode).toBe(2);
    expect((await admin('queues:replay', 'replayed-q', '--since', 'yesterday')).stderr).toMatch(/Not a time: yesterday/);
  });

  it('reads times and ages', () => {
    expect(parseSince('90m', 10_000_000).getTime()).toBe(10_000_000 - 5_400_000);
    expect(parseSince('2026-11-29T10:00:00Z').toISOString()).toBe('2026-11-29T10:00:00.000Z');
  });
});
