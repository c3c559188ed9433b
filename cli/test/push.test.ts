import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUSH_ENV } from '@miniqueue/api/testing';
import { as, closedPort, startBroker, type TestBroker } from './helpers/broker.js';
import { json } from './helpers/cli.js';

let broker: TestBroker;
let admin: ReturnType<typeof as>;

beforeAll(async () => {
  broker = await startBroker(PUSH_ENV);
  admin = as(broker);
  await admin('topics:create', 'hooks');
  await admin('queues:create', 'hooked', '--topic', 'hooks');
});
afterAll(() => broker.stop());

const lastLine = (text: string) => text.trimEnd().split('\n').at(-1) ?? '';

describe('queues push', () => {
  it('set prints the secret once, on the last line; get and a change never show it', async () => {
    const set = await admin('queues', 'push', 'set', 'hooked', 'http://127.0.0.1:9/hook', '--max-in-flight', '2');
    expect(set.exitCode).toBe(0);
    expect(lastLine(set.stdout)).toMatch(/^mqwh_[A-Za-z0-9_-]{43}$/);
    expect(set.stderr).toContain('it will not be shown again');
    const secret = lastLine(set.stdout);

    const got = await admin('queues:push:get', 'hooked');
    expect(got.stdout).toMatch(/max in flight\s+2/);
    expect(got.stdout).not.toContain('mqwh_');
    const changed = await admin('queues:push:set', 'hooked', 'http://127.0.0.1:9/other', '--json');
    expect(json(changed)).toMatchObject({ url: 'http://127.0.0.1:9/other' });
    expect(changed.stdout).not.toContain('mqwh_');

    const rotated = await admin('queues:push:rotate-secret', 'hooked');
    expect(lastLine(rotated.stdout)).toMatch(/^mqwh_/);
    expect(lastLine(rotated.stdout)).not.toBe(secret);
  });

  it('a refused URL says why; clear asks first', async () => {
    const refused = await admin('queues:push:set', 'hooked', 'https://10.0.0.1/hook');
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toMatch(/10\.0\.0\.1 is a private, loopback or reserved address/);
    expect((await admin('queues:push:clear', 'hooked')).exitCode).toBe(2);
    const cleared = await admin('queues:push:clear', 'hooked', '--yes');
    expect(cleared.stdout).toBe('Removed the push endpoint of hooked.\n');
    expect((await admin('queues:push:get', 'hooked')).exitCode).toBe(4);
  });

  it('queues:get and queues:push:get show a failing endpoint: how many in a row, the last error, no success yet', async () => {
    await admin('queues:create', 'hooked-failing', '--topic', 'hooks');
    const port = await closedPort();
    expect((await admin('queues:push:set', 'hooked-failing', `http://127.0.0.1:${port}/hook`)).exitCode).toBe(0);
    const published = await broker.post('/api/v1/topics/hooks/messages', { payload: 'p' }, broker.adminKey);
    expect(published.status).toBe(201);
    // The broker stores the endpoint's failures at most once a second: wait for the first to land.
    const stored = async () =>
      (await broker.pool.query(`SELECT consecutive_failures FROM queue_push WHERE queue_name = 'hooked-failing'`)).rows[0]?.consecutive_failures;
    for (let tries = 0; (await stored()) < 1; tries += 1) {
      if (tries > 100) throw new Error('no push failure stored');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const got = await admin('queues:get', 'hooked-failing');
    expect(got.exitCode).toBe(0);
    expect(got.stdout).toContain(`http://127.0.0.1:${port}/hook`);
    expect(got.stdout).toMatch(/push deliveries\s+failing: \d+ in a row/);
    expect(got.stdout).toMatch(/push last error\s+push delivery failed \(connection: ECONNREFUSED\)/);
    expect(got.stdout).toMatch(/push last success\s+-/);
    expect((await admin('queues:push:get', 'hooked-failing')).stdout).toMatch(/deliveries\s+failing: \d+ in a row/);
    expect((await admin('queues:get', 'hooked')).stdout).toMatch(/push\s+none \(consumers pull\)/);
  });
});
