import { describe, expect, it } from 'vitest';
import { json } from './helpers/cli.js';
import { brokerForFile, type FileBroker } from './helpers/fileBroker.js';

let admin: FileBroker['admin'];
brokerForFile((started) => ({ admin } = started));

describe('priorities from the command line', () => {
  it('queues:create --max-priority and publish --priority: the highest is consumed first', async () => {
    await admin('topics:create', 'jobs');
    const created = json(await admin('queues:create', 'jobs-ranked', '--topic', 'jobs', '--max-priority', '9', '--json'));
    expect(created).toMatchObject({ max_priority: 9 });
    expect((await admin('queues:get', 'jobs-ranked')).stdout).toMatch(/priorities\s+highest first, 0-9/);

    for (const [payload, priority] of [
      ['routine', '1'],
      ['urgent', '8'],
      ['normal', '4'],
    ]) {
      expect((await admin('publish', 'jobs', payload, '--priority', priority)).exitCode).toBe(0);
    }
    const { messages } = json<{ messages: { payload: string; priority: number }[] }>(await admin('consume', 'jobs-ranked', '-n', '3', '--json'));
    expect(messages.map((message) => `${message.payload}:${message.priority}`)).toEqual(['urgent:8', 'normal:4', 'routine:1']);

    const tooHigh = await admin('publish', 'jobs', 'x', '--priority', '10');
    expect(tooHigh.exitCode).toBe(2);
    const badMax = await admin('queues:create', 'jobs-bad', '--topic', 'jobs', '--max-priority', '0');
    expect(badMax.exitCode).toBe(2);
  });
});
