import { describe, expect, it } from 'vitest';
import { json } from './helpers/cli.js';
import { brokerForFile, type FileBroker } from './helpers/fileBroker.js';

let admin: FileBroker['admin'];
brokerForFile((started) => ({ admin } = started));

let counter = 0;
/**
 * A queue of its own with dead letters of two kinds: `refused` nacked for good (NACKED), and
 * `tired` nacked once with no retries left (RETRIES_EXHAUSTED).
 */
async function queueWithDeadLetters(refused: number, tired: number): Promise<{ queue: string; nacked: string[]; exhausted: string[] }> {
  counter += 1;
  const [topic, queue] = [`dt${counter}`, `dq${counter}`];
  await admin('topics:create', topic);
  await admin('queues:create', queue, '--topic', topic, '--max-retries', '0');
  const die = async (requeue: string, reason: string) => {
    await admin('publish', topic, reason);
    const [message] = json(await admin('consume', queue, '--no-ack', '--json')).messages;
    expect((await admin('nack', message.message_id, `--requeue=${requeue}`, '--reason', reason)).exitCode).toBe(0);
    return message.message_id as string;
  };
  const nacked: string[] = [];
  const exhausted: string[] = [];
  for (let n = 0; n < refused; n++) nacked.push(await die('false', `refused ${n}`));
  for (let n = 0; n < tired; n++) exhausted.push(await die('true', `tired ${n}`));
  return { queue, nacked, exhausted };
}

const deadOf = async (queue: string) =>
  json<{ items: Array<{ message_id: string; dead_reason: string }> }>(await admin('dlq:list', '--queue', queue, '--all', '--json')).items;

describe('dlq:replay of many', () => {
  it('--queue asks first: without a terminal and without --yes it refuses, and replays nothing', async () => {
    const { queue, nacked } = await queueWithDeadLetters(2, 0);
    const refused = await admin('dlq:replay', '--queue', queue);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('Refusing to do this without confirmation');
    expect(refused.stderr).toContain('--yes');
    expect((await deadOf(queue)).map((m) => m.message_id).sort()).toEqual([...nacked].sort());
    expect(json(await admin('dlq:replay', '--queue', queue, '--force', '--json'))).toEqual({ queue, reason: null, replayed: 2 });
    expect(await deadOf(queue)).toEqual([]);
  });

  it('--reason replays only the dead letters that died that way', async () => {
    const { queue, exhausted } = await queueWithDeadLetters(2, 1);
    const result = await admin('dlq:replay', '--queue', queue, '--reason', 'NACKED', '--yes');
    expect(result.stdout).toBe(`Replayed 2 dead messages of ${queue} that died NACKED.\n`);
    expect((await deadOf(queue)).map((m) => m.message_id)).toEqual(exhausted);
  });

  it('a message id and a filter together are a usage error', async () => {
    expect((await admin('dlq:replay', '3f2a9c1e-5b7d-4e8a-9c21-7d4e5f6a8b90', '--reason', 'NACKED')).exitCode).toBe(2);
    expect((await admin('dlq:replay', '--reason', 'LOST', '--yes')).exitCode).toBe(2);
  });
});

describe('dlq:delete of many', () => {
  it('deletes the dead letters of a queue and reason, after confirmation; --json says how many', async () => {
    const { queue, nacked } = await queueWithDeadLetters(1, 2);
    const refused = await admin('dlq:delete', '--queue', queue, '--reason', 'RETRIES_EXHAUSTED');
    expect(refused.exitCode).toBe(2);
    expect(await deadOf(queue)).toHaveLength(3);
    const deleted = json(await admin('dlq:delete', '--queue', queue, '--reason', 'RETRIES_EXHAUSTED', '--yes', '--json'));
    expect(deleted).toEqual({ queue, reason: 'RETRIES_EXHAUSTED', deleted: 2 });
    expect((await deadOf(queue)).map((m) => m.message_id)).toEqual(nacked);
    const rest = await admin('dlq:delete', '--queue', queue, '--limit', '5', '--yes');
    expect(rest.stdout).toBe(`Deleted 1 dead message of ${queue}.\n`);
    expect(await deadOf(queue)).toEqual([]);
  });

  it('needs exactly one of an id and a filter', async () => {
    expect((await admin('dlq:delete', '--yes')).exitCode).toBe(2);
    expect((await admin('dlq:delete', '3f2a9c1e-5b7d-4e8a-9c21-7d4e5f6a8b90', '--queue', 'q', '--yes')).exitCode).toBe(2);
  });
});

describe('messages:get of a dead message', () => {
  it('says when and why it died', async () => {
    const { nacked, exhausted } = await queueWithDeadLetters(1, 1);
    const refused = await admin('messages:get', nacked[0]!);
    expect(refused.stdout).toMatch(/^died\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ$/m);
    expect(refused.stdout).toMatch(/^why\s+NACKED: refused 0$/m);
    const tired = await admin('messages:get', exhausted[0]!);
    expect(tired.stdout).toMatch(/^why\s+RETRIES_EXHAUSTED: retries exhausted after 1 delivery: tired 0$/m);
  });
});
