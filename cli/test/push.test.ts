import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUSH_ENV } from '@miniqueue/api/testing';
import { as, startBroker, type TestBroker } from './helpers/broker.js';
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
});
