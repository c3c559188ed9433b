import { describe, expect, it } from 'vitest';
import { json } from './helpers/cli.js';
import { brokerForFile, type FileBroker } from './helpers/fileBroker.js';

let admin: FileBroker['admin'];
brokerForFile((started) => ({ admin } = started));

describe('delivery gates from the command line', () => {
  it('queues:create --single-active-consumer --max-deliveries-per-second; queues:update changes and lifts them', async () => {
    await admin('topics:create', 'sms');
    const created = json(await admin('queues:create', 'sms-out', '--topic', 'sms', '--single-active-consumer', '--max-deliveries-per-second', '200', '--json'));
    expect(created).toMatchObject({ single_active_consumer: true, max_deliveries_per_second: 200 });

    const shown = await admin('queues:get', 'sms-out');
    expect(shown.stdout).toMatch(/consumers\s+one at a time/);
    expect(shown.stdout).toMatch(/delivery rate\s+at most 200\/s/);

    const tooFast = await admin('queues:create', 'bad', '--topic', 'sms', '--max-deliveries-per-second', '0');
    expect(tooFast.exitCode).toBe(2);

    const changed = json(await admin('queues:update', 'sms-out', '--no-single-active-consumer', '--max-deliveries-per-second', 'none', '--json'));
    expect(changed).toMatchObject({ single_active_consumer: false, max_deliveries_per_second: null });
    const bad = await admin('queues:update', 'sms-out', '--max-deliveries-per-second', 'fast');
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--max-deliveries-per-second must be 1-100000 or "none"');
  });
});
