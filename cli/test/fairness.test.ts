import { describe, expect, it } from 'vitest';
import { json } from './helpers/cli.js';
import { brokerForFile, type FileBroker } from './helpers/fileBroker.js';

let admin: FileBroker['admin'];
brokerForFile((started) => ({ admin } = started));

interface Consumed {
  messages: { message_id: string; payload: string; group_key: string | null }[];
}

describe('fair sharing from the command line', () => {
  it('queues:create --fairness by_key --max-in-flight-per-key and publish --group-key: a noisy key does not hold back a quiet one', async () => {
    await admin('topics:create', 'reports');
    const created = json(await admin('queues:create', 'reports-fair', '--topic', 'reports', '--fairness', 'by_key', '--max-in-flight-per-key', '1', '--json'));
    expect(created).toMatchObject({ fairness: 'by_key', max_in_flight_per_key: 1 });
    expect((await admin('queues:get', 'reports-fair')).stdout).toMatch(/fairness\s+by group key, in turn, at most 1 in flight per key/);

    for (const [payload, group] of [
      ['noisy-1', 'noisy'],
      ['noisy-2', 'noisy'],
      ['noisy-3', 'noisy'],
      ['quiet-1', 'quiet'],
    ]) {
      expect((await admin('publish', 'reports', payload, '--group-key', group)).exitCode).toBe(0);
    }
    const first = json<Consumed>(await admin('consume', 'reports-fair', '-n', '2', '--no-ack', '--json'));
    expect(first.messages.map((message) => `${message.payload}:${message.group_key}`).sort()).toEqual(['noisy-1:noisy', 'quiet-1:quiet']);
    const noisy = first.messages.find((message) => message.group_key === 'noisy');
    expect((await admin('messages:get', noisy?.message_id ?? '')).stdout).toMatch(/group key\s+noisy/);
    // 'noisy' is at its limit of one in flight, and 'quiet' has nothing more.
    expect(json<Consumed>(await admin('consume', 'reports-fair', '-n', '2', '--no-ack', '--json')).messages).toEqual([]);

    const lifted = json(await admin('queues:update', 'reports-fair', '--max-in-flight-per-key', 'none', '--json'));
    expect(lifted).toMatchObject({ fairness: 'by_key', max_in_flight_per_key: null });
    const rest = json<Consumed>(await admin('consume', 'reports-fair', '-n', '2', '--json'));
    expect(rest.messages.map((message) => message.payload).sort()).toEqual(['noisy-2', 'noisy-3']);

    const changed = json(await admin('queues:update', 'reports-fair', '--max-in-flight-per-key', '4', '--json'));
    expect(changed).toMatchObject({ max_in_flight_per_key: 4 });
    const bad = await admin('queues:update', 'reports-fair', '--max-in-flight-per-key', 'lots');
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--max-in-flight-per-key must be 1-10000 or "none"');
  });

  it('refuses a fairness it does not know, a per-key limit out of range, and fairness with --max-priority', async () => {
    await admin('topics:create', 'reports-bad');
    expect((await admin('queues:create', 'bad-1', '--topic', 'reports-bad', '--fairness', 'round_robin')).exitCode).toBe(2);
    expect((await admin('queues:create', 'bad-2', '--topic', 'reports-bad', '--fairness', 'by_key', '--max-in-flight-per-key', '0')).exitCode).toBe(2);
    const withPriority = await admin('queues:create', 'bad-3', '--topic', 'reports-bad', '--fairness', 'by_key', '--max-priority', '5');
    expect(withPriority.exitCode).not.toBe(0);
    expect(withPriority.stderr).toMatch(/max_priority|fairness/);
    expect((await admin('queues:create', 'reports-plain', '--topic', 'reports-bad')).exitCode).toBe(0);
    expect((await admin('queues:get', 'reports-plain')).stdout).toMatch(/fairness\s+none \(oldest first\)/);
  });
});
