import { describe, expect, it } from 'vitest';
import { json } from './helpers/cli.js';
import { brokerForFile, type FileBroker } from './helpers/fileBroker.js';

let admin: FileBroker['admin'];
brokerForFile((started) => ({ admin } = started));

describe("a queue's attention settings from the command line", () => {
  it('queues:update sets thresholds and the mute, keeping those not given; "default" puts one back; queues:get shows them', async () => {
    await admin('topics:create', 'batch');
    await admin('queues:create', 'nightly', '--topic', 'batch');
    expect((await admin('queues:get', 'nightly')).stdout).toMatch(/needs attention\s+the defaults/);

    const set = json(await admin('queues:update', 'nightly', '--attention-oldest-pending', '7200', '--attention-dead-per-minute', '0.5', '--json'));
    expect(set).toMatchObject({ attention: { muted: false, oldest_pending_seconds: 7200, backlog_growth: null, dead_per_minute: 0.5 } });
    // The broker takes them as a whole: a later flag keeps the others.
    const grown = json(await admin('queues:update', 'nightly', '--attention-backlog-growth', '10000', '--attention-oldest-pending', 'default', '--json'));
    expect(grown).toMatchObject({ attention: { muted: false, oldest_pending_seconds: null, backlog_growth: 10000, dead_per_minute: 0.5 } });
    expect((await admin('queues:get', 'nightly')).stdout).toMatch(/needs attention\s+backlog growth over 10000 in 5 min, over 0\.5 dead\/min/);

    const muted = json(await admin('queues:update', 'nightly', '--attention-muted', '--json'));
    expect(muted).toMatchObject({ attention: { muted: true, backlog_growth: 10000 } });
    expect((await admin('queues:get', 'nightly')).stdout).toMatch(/needs attention\s+muted/);
    expect(json(await admin('queues:update', 'nightly', '--no-attention-muted', '--json'))).toMatchObject({ attention: { muted: false } });

    const bad = await admin('queues:update', 'nightly', '--attention-oldest-pending', 'soon');
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--attention-oldest-pending must be 1-2592000 or "default", got soon');
  });
});
