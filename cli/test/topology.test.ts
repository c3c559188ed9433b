import { describe, expect, it } from 'vitest';
import { as, type TestBroker } from './helpers/broker.js';
import { json } from './helpers/cli.js';
import { brokerForFile, type FileBroker } from './helpers/fileBroker.js';

let broker: TestBroker;
let admin: FileBroker['admin'];
brokerForFile((started) => ({ broker, admin } = started));

describe('topics', () => {
  it('create, list and delete', async () => {
    const created = await admin('topics:create', 'Order.Placed');
    expect(created.exitCode).toBe(0);
    expect(created.stdout).toBe('Created topic order.placed.\n');
    await admin('queues:create', 'email-queue', '--topic', 'order.placed');

    const list = await admin('topics:list');
    expect(list.stdout).toMatch(/^NAME\s+CREATED\s+QUEUES\n/);
    expect(list.stdout).toMatch(/order\.placed\s+\S+ \S+Z\s+email-queue/);

    await admin('topics:create', 'lonely');
    const deleted = json(await admin('topics:delete', 'lonely', '--json'));
    expect(deleted).toEqual({ name: 'lonely', deleted: true });
    expect(json<Array<{ name: string }>>(await admin('topics:list', '--json')).map((t) => t.name)).not.toContain('lonely');
  });

  it('--json shapes', async () => {
    const created = json(await admin('topics:create', 'shapes', '--json'));
    expect(Object.keys(created).sort()).toEqual(['created_at', 'name']);
    const topics = json<Array<Record<string, unknown>>>(await admin('topics:list', '--json'));
    expect(topics.find((t) => t.name === 'shapes')).toEqual({ name: 'shapes', created_at: created.created_at, queues: [] });
  });

  it('a duplicate topic is exit code 5', async () => {
    await admin('topics:create', 'dup');
    expect((await admin('topics:create', 'dup')).exitCode).toBe(5);
  });

  it('deleting a topic with queues is refused with exit code 5', async () => {
    await admin('topics:create', 'bound');
    await admin('queues:create', 'bound-queue', '--topic', 'bound');
    const result = await admin('topics:delete', 'bound');
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toMatch(/^Error: .+\nHint: .*`miniqueue queues:delete`.*\n$/);
  });

  it('deleting an unknown topic is exit code 4 with where to look', async () => {
    const result = await admin('topics:delete', 'nope');
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('Hint: `miniqueue topics:list` shows the topics; `miniqueue topics:create NAME` makes one.');
  });

  it('a viewer may list but not create', async () => {
    const viewer = as(broker, await broker.clientKey('topic-viewer', ['view']));
    expect((await viewer('topics:list')).exitCode).toBe(0);
    const result = await viewer('topics:create', 'forbidden');
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toContain('This needs the scope admin');
  });
});

describe('queues', () => {
  it('create with --ack-timeout and --max-retries, then list', async () => {
    await admin('topics:create', 'stock');
    const created = json(await admin('queues:create', 'stock-queue', '-t', 'stock', '--ack-timeout', '120', '--max-retries', '10', '--json'));
    expect(created).toMatchObject({ name: 'stock-queue', topic_name: 'stock', ack_timeout_seconds: 120, max_retries: 10 });
    expect(Object.keys(created).sort()).toEqual([
      'ack_timeout_seconds',
      'acked_retention_hours',
      'attention',
      'created_at',
      'dead_letter_keep',
      'dead_letter_topic',
      'fairness',
      'max_bytes',
      'max_deliveries_per_second',
      'max_in_flight_per_key',
      'max_messages',
      'max_priority',
      'max_retries',
      'message_ttl_seconds',
      'name',
      'on_expiry',
      'overflow',
      'require_ordering_key',
      'single_active_consumer',
      'topic_name',
    ]);

    const defaults = await admin('queues:create', 'stock-defaults', '--topic', 'stock');
    expect(defaults.stdout).toBe('Created queue stock-defaults on topic stock (ack timeout 30s, max retries 5).\n');

    const list = await admin('queues:list');
    expect(list.stdout).toMatch(/^NAME\s+TOPIC\s+ACK TIMEOUT\s+MAX RETRIES\s+FEATURES\s+CREATED\n/);
    expect(list.stdout).toMatch(/stock-queue\s+stock\s+120s\s+10\s/);
    expect(json<unknown[]>(await admin('queues:list', '--json')).length).toBeGreaterThanOrEqual(2);
  });

  it('shows the policies a queue has, as RabbitMQ does: in the list, its --json and -o tsv, and when it is created', async () => {
    await admin('topics:create', 'quotes');
    await admin('topics:create', 'quotes.dead');
    const created = await admin(
      'queues:create',
      'quotes-policies',
      '--topic',
      'quotes',
      '--message-ttl',
      '60',
      '--dead-letter-topic',
      'quotes.dead',
      '--max-messages',
      '100',
      '--max-priority',
      '5',
      '--single-active-consumer',
      '--max-deliveries-per-second',
      '20',
    );
    // A bounded queue that refuses whole publishes (the default overflow) is told what that does on a shared topic.
    expect(created.stdout.split('\n')).toEqual([
      'Created queue quotes-policies on topic quotes (ack timeout 30s, max retries 5; features TTL DLX Lim Pri SAC Rate).',
      'Note: When quotes-policies is full it refuses every publish to quotes, for every queue bound to it; --overflow reject_copy refuses only its own copy.',
      '',
    ]);
    await admin('queues:create', 'quotes-fair', '--topic', 'quotes', '--fairness', 'by_key');
    await admin('queues:create', 'quotes-plain', '--topic', 'quotes');

    const list = await admin('queues:list');
    expect(list.stdout).toMatch(/quotes-policies\s+quotes\s+30s\s+5\s+TTL DLX Lim Pri SAC Rate\s/);
    expect(list.stdout).toMatch(/quotes-fair\s+quotes\s+30s\s+5\s+Fair\s/);
    expect(list.stdout).toMatch(/quotes-plain\s+quotes\s+30s\s+5\s+-\s/);
    const listed = json<Array<{ name: string; features: string[] }>>(await admin('queues:list', '--json'));
    expect(listed.find((q) => q.name === 'quotes-policies')?.features).toEqual(['TTL', 'DLX', 'Lim', 'Pri', 'SAC', 'Rate']);
    expect(listed.find((q) => q.name === 'quotes-plain')?.features).toEqual([]);
    const tsv = (await admin('queues:list', '-o', 'tsv')).stdout.split('\n').map((line) => line.split('\t'));
    expect(tsv[0]).toEqual(['NAME', 'TOPIC', 'ACK TIMEOUT', 'MAX RETRIES', 'FEATURES', 'CREATED']);
    expect(tsv.find((row) => row[0] === 'quotes-fair')?.[4]).toBe('Fair');
  });

  it('a queue on a missing topic is exit code 4, pointing at topics:list', async () => {
    const result = await admin('queues:create', 'orphan', '--topic', 'missing');
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toBe(
      'Error: No topic found with the name missing\nHint: `miniqueue topics:list` shows the topics; `miniqueue topics:create NAME` makes one.\n',
    );
  });

  it('out-of-range flags are refused before anything is sent', async () => {
    const result = await admin('queues:create', 'q', '--topic', 'stock', '--ack-timeout', '0');
    expect(result.exitCode).toBe(2);
  });

  it('purge deletes the messages and keeps the queue; delete removes it', async () => {
    await admin('topics:create', 'purged');
    await admin('queues:create', 'purged-queue', '--topic', 'purged');
    for (let i = 0; i < 3; i++) await admin('publish', 'purged', `{"n":${i}}`);

    expect((await admin('queues:purge', 'purged-queue')).exitCode).toBe(2); // no terminal, no --yes
    const purged = json(await admin('queues:purge', 'purged-queue', '--yes', '--json'));
    expect(purged).toEqual({ queue: 'purged-queue', purged: 3 });
    expect((await admin('queues:purge', 'purged-queue', '-y')).stdout).toBe('Purged 0 messages from purged-queue.\n');

    expect((await admin('queues:delete', 'purged-queue')).exitCode).toBe(2);
    expect(json(await admin('queues:delete', 'purged-queue', '--yes', '--json'))).toEqual({ name: 'purged-queue', deleted: true });
    const gone = await admin('queues:delete', 'purged-queue', '--yes');
    expect(gone.exitCode).toBe(4);
    expect(gone.stderr).toContain('`miniqueue queues:list` shows the queues; `miniqueue queues:create NAME --topic TOPIC` makes one.');
  });
});
