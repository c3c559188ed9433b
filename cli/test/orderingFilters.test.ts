import { describe, expect, it } from 'vitest';
import { type TestBroker } from './helpers/broker.js';
import { json } from './helpers/cli.js';
import { brokerForFile, type FileBroker } from './helpers/fileBroker.js';

let broker: TestBroker;
let admin: FileBroker['admin'];
brokerForFile((started) => ({ broker, admin } = started));

describe('filters and ordering keys from the command line', () => {
  it('queues:create --filter and --require-ordering-key; queues:update changes and removes them', async () => {
    await admin('topics:create', 'pay');
    const created = json(
      await admin('queues:create', 'eu-pay', '--topic', 'pay', '--filter', '{"header":"region","one_of":["eu","uk"]}', '--require-ordering-key', '--json'),
    );
    expect(created).toMatchObject({ filter: { header: 'region', one_of: ['eu', 'uk'] }, require_ordering_key: true });
    await admin('queues:create', 'all-pay', '--topic', 'pay');

    const shown = await admin('queues:get', 'eu-pay');
    expect(shown.stdout).toContain('{"header":"region","one_of":["eu","uk"]}');
    expect(shown.stdout).toMatch(/ordering key\s+required/);

    const badJson = await admin('queues:create', 'bad', '--topic', 'pay', '--filter', '{"header":');
    expect(badJson.exitCode).toBe(2);
    expect(badJson.stderr).toContain('--filter is not JSON');
    const badFilter = await admin('queues:create', 'bad', '--topic', 'pay', '--filter', '{"and":[]}');
    expect(badFilter.exitCode).toBe(1);
    expect(badFilter.stderr).toContain('filter.and must be a list of 1 to 10 filters');

    const changed = json(await admin('queues:update', 'eu-pay', '--filter', '{"header":"region","prefix":"eu-"}', '--no-require-ordering-key', '--json'));
    expect(changed).toMatchObject({ filter: { header: 'region', prefix: 'eu-' }, require_ordering_key: false });
    const removed = json(await admin('queues:update', 'eu-pay', '--filter', 'none', '--require-ordering-key', '--json'));
    expect(removed).not.toHaveProperty('filter');
    expect(removed.require_ordering_key).toBe(true);
  });

  it('publish --ordering-key; a queue that requires one refuses a publish without it', async () => {
    const refused = await admin('publish', 'pay', 'no key');
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain('requires an ordering_key');
    const published = json(await admin('publish', 'pay', 'first', '--ordering-key', 'order-1', '--json'));
    expect(published.queues).toEqual(['all-pay', 'eu-pay']);
    await admin('publish', 'pay', 'second', '--ordering-key', 'order-1');
    const first = await broker.post('/api/v1/queues/eu-pay/consume', undefined, broker.adminKey);
    expect(first.body).toMatchObject({ payload: 'first', ordering_key: 'order-1' });
    // The second of order-1 waits until the first is acked.
    expect((await broker.post('/api/v1/queues/eu-pay/consume', undefined, broker.adminKey)).status).toBe(204);
  });
});
