import { describe, expect, it } from 'vitest';
import { as, type TestBroker } from './helpers/broker.js';
import { json, runCli, spawnCli, startCli } from './helpers/cli.js';
import { brokerForFile, type FileBroker } from './helpers/fileBroker.js';

let broker: TestBroker;
let admin: FileBroker['admin'];
brokerForFile((started) => ({ broker, admin } = started));

let counter = 0;
/** A fresh topic with one queue bound to it, so tests do not see each other's messages. */
async function topicWithQueue(options: string[] = []): Promise<{ topic: string; queue: string }> {
  counter += 1;
  const topic = `t${counter}`;
  const queue = `q${counter}`;
  await admin('topics:create', topic);
  await admin('queues:create', queue, '--topic', topic, ...options);
  return { topic, queue };
}

async function listed(queue: string, ...flags: string[]) {
  return json(await admin('messages:list', queue, '--json', ...flags)).items as Array<Record<string, any>>;
}

/** Counts the stream handshakes the broker is asked for from now on. */
function countStreams(): { count: number } {
  const counted = { count: 0 };
  broker.broker.server.listener.on('upgrade', (request) => {
    if (new URL(request.url ?? '/', 'http://x').pathname === '/ws/v1/stream') counted.count += 1;
  });
  return counted;
}

/** A message that a consumer rejected for good. */
async function deadMessage(topic: string, queue: string, payload: string): Promise<string> {
  await admin('publish', topic, payload);
  const [message] = json(await admin('consume', queue, '--no-ack', '--json')).messages;
  const nack = await broker.post(`/api/v1/messages/${message.message_id}/nack`, { requeue: false }, broker.adminKey);
  expect(nack.body.status).toBe('DEAD');
  return message.message_id;
}

describe('publish', () => {
  it('publishes the argument to every bound queue', async () => {
    const { topic, queue } = await topicWithQueue();
    const result = await admin('publish', topic, '{"orderId": 42}');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^Published to ${topic}: ${queue} [0-9a-f-]{36}\\n$`));
    const [message] = await listed(queue);
    expect(message).toMatchObject({ payload: '{"orderId": 42}', status: 'PENDING', headers: {} });
  });

  it('--json is the publish result', async () => {
    const { topic, queue } = await topicWithQueue();
    const result = json(await admin('publish', topic, 'plain text', '--json'));
    expect(Object.keys(result).sort()).toEqual(['duplicate', 'message_ids', 'queues']);
    expect(result).toMatchObject({ queues: [queue], duplicate: false });
  });

  it('sends --header pairs and --delay', async () => {
    const { topic, queue } = await topicWithQueue();
    await admin('publish', topic, '{}', '--header', 'content-type=application/json', '-H', 'x-source: cli', '--delay', '60');
    const [message] = await listed(queue);
    expect(message.headers).toEqual({ 'content-type': 'application/json', 'x-source': 'cli' });
    const delay = (Date.parse(message.available_at) - Date.parse(message.published_at)) / 1000;
    expect(delay).toBeGreaterThanOrEqual(59);
    expect(delay).toBeLessThanOrEqual(61);
  });

  it('stores a message once per --idempotency-key', async () => {
    const { topic, queue } = await topicWithQueue();
    const first = json(await admin('publish', topic, 'once', '--idempotency-key', 'k-1', '--json'));
    const again = await admin('publish', topic, 'once', '--idempotency-key', 'k-1');
    expect(again.stdout).toBe(`Already published under this idempotency key: ${first.message_ids[0]}\n`);
    expect(await listed(queue)).toHaveLength(1);
  });

  it('reads the payload from standard input, without the newline echo adds', async () => {
    const { topic, queue } = await topicWithQueue();
    const result = await spawnCli(['publish', topic, '--url', broker.url], {
      env: { MINIQUEUE_API_KEY: broker.adminKey },
      input: '{"from":"stdin"}\n',
    });
    expect(result.exitCode).toBe(0);
    expect((await listed(queue))[0].payload).toBe('{"from":"stdin"}');
  });

  it('warns when no queue is bound to the topic', async () => {
    await admin('topics:create', 'unbound');
    const result = await admin('publish', 'unbound', 'lost');
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('no queue is bound to unbound, so nothing was stored');
  });

  it('an unknown topic is exit code 4 pointing at topics:list', async () => {
    const result = await admin('publish', 'nowhere', 'x');
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toBe(
      'Error: No topic found with the name nowhere\nHint: `miniqueue topics:list` shows the topics; `miniqueue topics:create NAME` makes one.\n',
    );
  });

  it('without the publish scope: exit 3 naming it', async () => {
    const { topic } = await topicWithQueue();
    const reader = as(broker, await broker.clientKey(`reader-${topic}`, ['view']));
    const result = await reader('publish', topic, 'x');
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toContain(`Error: This needs the scope publish:${topic} (or admin)`);
    expect(result.stderr).toContain(`clients:create NAME --scope publish:${topic}`);
  });

  it('a payload and --file together are a usage error', async () => {
    expect((await admin('publish', 'x', 'payload', '--file', 'f.jsonl')).exitCode).toBe(2);
  });
});

describe('consume', () => {
  it('claims the oldest message, prints it, and acks it', async () => {
    const { topic, queue } = await topicWithQueue();
    await admin('publish', topic, 'first', '-H', 'k=v');
    await admin('publish', topic, 'second');
    const result = await admin('consume', queue);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^[0-9a-f-]{36}  ${queue}  retry 0  published \\S+ \\S+Z  headers k=v\\nfirst\\n`));
    expect(result.stderr).toBe(`1 message from ${queue}, acknowledged.\n`);
    expect((await listed(queue, '--status', 'ACKED')).map((m) => m.payload)).toEqual(['first']);
    expect((await listed(queue, '--status', 'PENDING')).map((m) => m.payload)).toEqual(['second']);
  });

  it('--count takes several; --json gives each with its status after the ack', async () => {
    const { topic, queue } = await topicWithQueue();
    for (const n of [1, 2, 3]) await admin('publish', topic, `m${n}`);
    const result = json(await admin('consume', queue, '--count', '5', '--json'));
    expect(result.queue).toBe(queue);
    expect(result.acked).toBe(3);
    expect(result.messages.map((m: { payload: string }) => m.payload)).toEqual(['m1', 'm2', 'm3']);
    // The status each message has now, not the one it was claimed with.
    expect(result.messages.map((m: { status: string }) => m.status)).toEqual(['ACKED', 'ACKED', 'ACKED']);
    expect(result.messages[0].lease_expires_at).toBeNull();
    expect(await listed(queue, '--status', 'ACKED')).toHaveLength(3);
  });

  it('--no-ack leaves the message claimed', async () => {
    const { topic, queue } = await topicWithQueue();
    await admin('publish', topic, 'peek');
    const result = await admin('consume', queue, '--no-ack');
    expect(result.stderr).toContain('left claimed until the lease ends');
    expect(await listed(queue, '--status', 'UNACKED')).toHaveLength(1);
    await admin('publish', topic, 'peek again');
    const peeked = json(await admin('consume', queue, '--no-ack', '--json'));
    expect(peeked).toMatchObject({ acked: 0, messages: [{ payload: 'peek again', status: 'UNACKED' }] });
  });

  it('--wait long-polls an empty queue, then reports nothing', async () => {
    const { queue } = await topicWithQueue();
    const started = Date.now();
    const result = await admin('consume', queue, '--wait', '1', '--json');
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(result.exitCode).toBe(0);
    expect(json(result)).toEqual({ queue, acked: 0, messages: [] });
  });

  it('--follow waits for messages as they come and streams JSON lines', async () => {
    const { topic, queue } = await topicWithQueue();
    const following = admin('consume', queue, '--follow', '--count', '2', '--json');
    await new Promise((resolve) => setTimeout(resolve, 500));
    await broker.post(`/api/v1/topics/${topic}/messages`, { payload: 'late-1' }, broker.adminKey);
    await broker.post(`/api/v1/topics/${topic}/messages`, { payload: 'late-2' }, broker.adminKey);
    const result = await following;
    expect(result.exitCode).toBe(0);
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((m) => m.payload)).toEqual(['late-1', 'late-2']);
    expect(lines.map((m) => m.status)).toEqual(['ACKED', 'ACKED']);
  });

  it('--follow stops cleanly on Ctrl-C, acking what it printed', async () => {
    const { topic, queue } = await topicWithQueue();
    const following = startCli(['consume', queue, '--follow'], { env: { MINIQUEUE_URL: broker.url, MINIQUEUE_API_KEY: broker.adminKey } });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await broker.post(`/api/v1/topics/${topic}/messages`, { payload: 'while-following' }, broker.adminKey);
    await following.waitFor('stdout', /while-following/);
    following.signal('SIGINT');
    const result = await following.done;
    expect(result.exitCode).toBe(130);
    expect(result.stderr).toBe(`Waiting for messages in ${queue}…\n1 message from ${queue}, acknowledged.\n`);
    expect(await listed(queue, '--status', 'ACKED')).toHaveLength(1);
  });

  it('Ctrl-C during `consume --wait` claims nothing: the next message stays for the next consumer', async () => {
    const { topic, queue } = await topicWithQueue(['--max-retries', '0']);
    const waiting = startCli(['consume', queue, '--wait', '20'], { env: { MINIQUEUE_URL: broker.url, MINIQUEUE_API_KEY: broker.adminKey } });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await waiting.waitFor('stderr', new RegExp(`^Waiting for a message in ${queue} \\(up to 20 s\\)…$`, 'm'));
    waiting.signal('SIGINT');
    expect((await waiting.done).exitCode).toBe(130);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await broker.post(`/api/v1/topics/${topic}/messages`, { payload: 'after ctrl-c' }, broker.adminKey);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const [pending] = await listed(queue);
    expect(pending).toMatchObject({ payload: 'after ctrl-c', status: 'PENDING', retry_count: 0, consumer_id: null });
  });

  it('goes over the stream, taking exactly --count; --transport http and --no-ack use HTTP requests', async () => {
    const { topic, queue } = await topicWithQueue();
    for (const n of [1, 2, 3, 4, 5]) await admin('publish', topic, `m${n}`);
    const upgrades = countStreams();
    const streamed = json(await admin('consume', queue, '--count', '2', '--json'));
    expect(streamed.messages.map((m: { payload: string }) => m.payload)).toEqual(['m1', 'm2']);
    expect(upgrades.count).toBe(1);
    // Nothing more was claimed for a stream that then closed: the rest waits untouched.
    expect((await listed(queue, '--status', 'PENDING')).map((m) => [m.payload, m.retry_count])).toEqual([
      ['m3', 0],
      ['m4', 0],
      ['m5', 0],
    ]);
    const overHttp = json(await admin('consume', queue, '--count', '2', '--json', '--transport', 'http'));
    expect(overHttp.messages.map((m: { payload: string }) => m.payload)).toEqual(['m3', 'm4']);
    const peeked = json(await admin('consume', queue, '--no-ack', '--json'));
    expect(peeked.messages).toMatchObject([{ payload: 'm5', status: 'UNACKED' }]);
    expect(upgrades.count).toBe(1);
    expect(await listed(queue, '--status', 'ACKED')).toHaveLength(4);
  });

  it('an unknown queue is exit code 4; a key without consume scope exit code 3', async () => {
    const unknown = await admin('consume', 'nope');
    expect(unknown.exitCode).toBe(4);
    expect(unknown.stderr).toContain('`miniqueue queues:list` shows the queues; `miniqueue queues:create NAME --topic TOPIC` makes one.');
    const { queue } = await topicWithQueue();
    const viewer = as(broker, await broker.clientKey(`viewer-${queue}`, ['view']));
    const forbidden = await viewer('consume', queue);
    expect(forbidden.exitCode).toBe(3);
    expect(forbidden.stderr).toContain(`This needs the scope consume:${queue}`);
  });
});

describe('messages:list', () => {
  it('shows a table, filters by status, and pages with a cursor', async () => {
    const { topic, queue } = await topicWithQueue();
    for (const n of [1, 2, 3]) await admin('publish', topic, `line\n${n}`);
    await admin('consume', queue); // the oldest is ACKED

    const table = await admin('messages:list', queue);
    expect(table.stdout).toMatch(/^ID\s+STATUS\s+RETRIES\s+PUBLISHED\s+CONSUMER\s+PAYLOAD\n/);
    expect(table.stdout).toMatch(/ACKED\s+0\s+\S+ \S+Z\s+bootstrap-admin\s+line 1\n/);
    expect(table.stdout).toMatch(/PENDING\s+0\s+\S+ \S+Z\s+-\s+line 3\n$/);

    expect((await listed(queue, '--status', 'PENDING')).map((m) => m.payload)).toEqual(['line\n2', 'line\n3']);

    const first = await admin('messages:list', queue, '--limit', '2');
    const cursor = /--cursor (\S+) /.exec(first.stdout)?.[1];
    expect(cursor).toBeTruthy();
    const page = json(await admin('messages:list', queue, '--limit', '2', '--cursor', cursor!, '--json'));
    expect(page.items.map((m: { payload: string }) => m.payload)).toEqual(['line\n3']);
    expect(page.next_cursor).toBeNull();

    const all = json(await admin('messages:list', queue, '--limit', '1', '--all', '--json'));
    expect(Object.keys(all).sort()).toEqual(['items', 'next_cursor', 'total', 'total_exact']);
    expect(all.items).toHaveLength(3);
    expect(Object.keys(all.items[0]).sort()).toEqual([
      'available_at',
      'consumer_id',
      'headers',
      'lease_expires_at',
      'message_id',
      'ordering_key',
      'payload',
      'published_at',
      'queue',
      'retry_count',
      'status',
      'topic',
      'unacked_at',
    ]);
  });

  it('an unknown queue is exit code 4', async () => {
    expect((await admin('messages:list', 'nope')).exitCode).toBe(4);
  });

  it('-o tsv is rows only on stdout: the next-page hint goes to stderr', async () => {
    const { topic, queue } = await topicWithQueue();
    for (const n of [1, 2]) await admin('publish', topic, `tsv-${n}`);
    const result = await admin('messages:list', queue, '--limit', '1', '-o', 'tsv');
    expect(result.exitCode).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines.map((line) => line.split('\t').length)).toEqual([6, 6]);
    expect(result.stderr).toContain('More messages (2 in all): add --cursor');
    // No dead messages: the header alone, not a sentence a program would take for a row.
    const dead = await admin('dlq:list', '--queue', queue, '--limit', '1', '-o', 'tsv');
    expect(dead.stdout).toBe('ID\tQUEUE\tRETRIES\tLAST CONSUMER\tPUBLISHED\tDIED\tWHY\tPAYLOAD\n');
  });

  it('lists newest first, and by a header value', async () => {
    const { topic, queue } = await topicWithQueue();
    for (const [payload, customer] of [
      ['a', '1'],
      ['b', '2'],
      ['c', '1'],
    ]) {
      await broker.post(`/api/v1/topics/${topic}/messages`, { payload, headers: { customer } }, broker.adminKey);
    }
    expect((await listed(queue, '--order', 'desc')).map((m) => m.payload)).toEqual(['c', 'b', 'a']);
    expect((await listed(queue, '--header', 'customer=1', '--all')).map((m) => m.payload)).toEqual(['a', 'c']);
    const page = json(await admin('messages:list', queue, '--limit', '1', '--json'));
    expect([page.total, page.total_exact]).toEqual([3, true]);
    expect((await admin('messages:list', queue, '--limit', '1')).stdout).toContain('More messages (3 in all): add --cursor');
    expect((await admin('messages:list', queue, '--header', 'customer')).exitCode).toBe(2);
  });

  it('a bad --status is a usage error', async () => {
    expect((await admin('messages:list', 'q1', '--status', 'GONE')).exitCode).toBe(2);
  });
});

describe('messages:get', () => {
  it('shows one message with its facts and payload; --json is the message', async () => {
    const { topic, queue } = await topicWithQueue();
    await admin('publish', topic, 'looked at', '--header', 'x-source=cli');
    const [claimed] = json(await admin('consume', queue, '--no-ack', '--json')).messages;
    const shown = await admin('messages:get', claimed.message_id);
    expect(shown.exitCode).toBe(0);
    expect(shown.stdout).toMatch(new RegExp(`^id\\s+${claimed.message_id}\n`));
    expect(shown.stdout).toMatch(/status\s+UNACKED/);
    expect(shown.stdout).toMatch(/consumer\s+bootstrap-admin/);
    expect(shown.stdout).toMatch(/lease ends\s+\S+ \S+Z/);
    expect(shown.stdout).toMatch(/headers\s+x-source=cli/);
    expect(shown.stdout.endsWith('\n\nlooked at\n')).toBe(true);
    const asJson = json(await admin('messages:get', claimed.message_id, '--json'));
    expect(asJson).toEqual((await listed(queue))[0]);
  });

  it('an unknown id is exit code 4; a consumer of another queue gets the same', async () => {
    const { topic, queue } = await topicWithQueue();
    await admin('publish', topic, 'hidden');
    const [message] = await listed(queue);
    const outsider = await broker.clientKey(`outsider-${queue}`, ['consume:elsewhere']);
    for (const [who, id] of [
      [admin, '3f2a9c1e-5b7d-4e8a-9c21-7d4e5f6a8b90'],
      [as(broker, outsider), message.message_id],
    ] as const) {
      const result = await who('messages:get', id);
      expect(result.exitCode).toBe(4);
      expect(result.stderr).toContain(
        'Hint: `miniqueue messages:list QUEUE` and `miniqueue dlq:list` show message ids; an acked message is kept only for the acked retention of its queue.',
      );
    }
  });

  it('a key that may neither view nor consume is exit code 3, naming view', async () => {
    const publisher = await broker.clientKey('get-publisher', ['publish:*']);
    const result = await as(broker, publisher)('messages:get', '3f2a9c1e-5b7d-4e8a-9c21-7d4e5f6a8b90');
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toContain('--scope view');
  });
});

describe('dlq', () => {
  it('lists dead messages with their last consumer, of all queues or one', async () => {
    const a = await topicWithQueue();
    const b = await topicWithQueue();
    const deadA = await deadMessage(a.topic, a.queue, 'poison-a');
    const deadB = await deadMessage(b.topic, b.queue, 'poison-b');

    const table = await admin('dlq:list');
    expect(table.stdout).toMatch(/^ID\s+QUEUE\s+RETRIES\s+LAST CONSUMER\s+PUBLISHED\s+DIED\s+WHY\s+PAYLOAD\n/);
    expect(table.stdout).toMatch(
      new RegExp(`${deadA}\\s+${a.queue}\\s+0\\s+bootstrap-admin\\s+\\S+ \\S+Z\\s+\\S+ \\S+Z\\s+nacked without requeue\\s+poison-a`),
    );
    expect(table.stdout).toContain(deadB);

    const onlyB = json(await admin('dlq:list', '--queue', b.queue, '--json'));
    expect(onlyB.items.map((m: { message_id: string }) => m.message_id)).toEqual([deadB]);
    expect(onlyB.next_cursor).toBeNull();
  });

  it('fits the terminal: at 120 columns nothing is wider, --wide shows every column, -o tsv and -o json are for programs', async () => {
    const { topic, queue } = await topicWithQueue();
    const id = await deadMessage(topic, queue, JSON.stringify({ to: 'someone@example.com', body: 'x'.repeat(200) }));
    const at = (...flags: string[]) => runCli(['dlq:list', '--queue', queue, ...flags, '--url', broker.url, '--api-key', broker.adminKey], { COLUMNS: '120' });
    const narrow = (await at()).stdout.trimEnd().split('\n');
    expect(Math.max(...narrow.map((line) => line.length))).toBeLessThanOrEqual(120);
    expect(narrow.join('\n')).toContain(id);
    expect(narrow.at(-1)).toMatch(/^\(--wide shows .*PUBLISHED/);
    const wide = (await at('--wide')).stdout;
    expect(wide).toMatch(/^ID\s+QUEUE\s+RETRIES\s+LAST CONSUMER\s+PUBLISHED\s+DIED\s+WHY\s+PAYLOAD\n/);
    const tsv = (await at('-o', 'tsv')).stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.split('\t'));
    expect(tsv[0]).toEqual(['ID', 'QUEUE', 'RETRIES', 'LAST CONSUMER', 'PUBLISHED', 'DIED', 'WHY', 'PAYLOAD']);
    expect(tsv[1]![0]).toBe(id);
    expect(tsv[1]![7]).toContain('x'.repeat(200));
    expect(json(await at('-o', 'json')).items.map((m: { message_id: string }) => m.message_id)).toEqual([id]);
  });

  it('at 120 columns the reason a message died is kept readable, other columns left out first', async () => {
    const { topic, queue } = await topicWithQueue();
    await admin('publish', topic, JSON.stringify({ body: 'y'.repeat(200) }));
    const [message] = json(await admin('consume', queue, '--no-ack', '--json')).messages;
    const reason = 'customer 42 has no email address on file anymore';
    await admin('nack', message.message_id, '--requeue=false', '--reason', reason);
    const table = await runCli(['dlq:list', '--queue', queue, '--url', broker.url, '--api-key', broker.adminKey], { COLUMNS: '120' });
    const lines = table.stdout.trimEnd().split('\n');
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(120);
    const row = lines.find((line) => line.startsWith(message.message_id))!;
    expect(row).toContain(reason.slice(0, 30));
  });

  it('nack --reason is shown as why it died; dlq:list --reason and --queue filter', async () => {
    const { topic, queue } = await topicWithQueue(['--max-retries', '0']);
    await admin('publish', topic, 'refused');
    const [refused] = json(await admin('consume', queue, '--no-ack', '--json')).messages;
    expect((await admin('nack', refused.message_id, '--requeue=false', '--reason', 'no such customer')).exitCode).toBe(0);
    await admin('publish', topic, 'tired');
    const [tired] = json(await admin('consume', queue, '--no-ack', '--json')).messages;
    await admin('nack', tired.message_id, '--reason', 'try later');

    const nacked = json(await admin('dlq:list', '--queue', queue, '--reason', 'NACKED', '--json')).items;
    expect(nacked.map((m: Record<string, string>) => [m.message_id, m.dead_reason, m.dead_detail])).toEqual([
      [refused.message_id, 'NACKED', 'no such customer'],
    ]);
    const exhausted = json(await admin('dlq:list', '--queue', queue, '--reason', 'RETRIES_EXHAUSTED', '--json')).items;
    expect(exhausted.map((m: Record<string, string>) => m.dead_detail)).toEqual(['retries exhausted after 1 delivery: try later']);
    expect((await admin('dlq:list', '--queue', queue)).stdout).toContain('no such customer');
    expect((await admin('dlq:list', '--reason', 'LOST')).exitCode).toBe(2);
  });

  it('replays one message by id; replaying it again is exit code 5', async () => {
    const { topic, queue } = await topicWithQueue();
    const id = await deadMessage(topic, queue, 'again');
    const replayed = json(await admin('dlq:replay', id, '--json'));
    expect(replayed).toEqual({ message_id: id, status: 'PENDING' });
    expect((await listed(queue, '--status', 'PENDING')).map((m) => m.message_id)).toEqual([id]);
    const twice = await admin('dlq:replay', id);
    expect(twice.exitCode).toBe(5);
  });

  it('replays a whole queue with --queue, at most --limit', async () => {
    const { topic, queue } = await topicWithQueue();
    for (const n of [1, 2, 3]) await deadMessage(topic, queue, `dead-${n}`);
    expect(json(await admin('dlq:replay', '--queue', queue, '--limit', '2', '--yes', '--json'))).toEqual({ queue, reason: null, limit: 2, replayed: 2 });
    const rest = await admin('dlq:replay', '--queue', queue, '--yes');
    expect(rest.stdout).toBe(`Replayed 1 dead message of ${queue}.\n`);
    expect(await listed(queue, '--status', 'PENDING')).toHaveLength(3);
  });

  it('needs exactly one of an id and --queue', async () => {
    expect((await admin('dlq:replay')).exitCode).toBe(2);
    expect((await admin('dlq:replay', '3f2a9c1e-5b7d-4e8a-9c21-7d4e5f6a8b90', '--queue', 'q1')).exitCode).toBe(2);
  });

  it('deletes one dead message with --yes; --json says so', async () => {
    const { topic, queue } = await topicWithQueue();
    const id = await deadMessage(topic, queue, 'unwanted');
    expect(json(await admin('dlq:delete', id, '--yes', '--json'))).toEqual({ message_id: id, deleted: true });
    expect(await listed(queue)).toEqual([]);
    const again = await admin('dlq:delete', id, '--yes');
    expect(again.exitCode).toBe(4);
  });

  it('will not delete without confirmation when there is no terminal', async () => {
    const { topic, queue } = await topicWithQueue();
    const id = await deadMessage(topic, queue, 'kept');
    const result = await admin('dlq:delete', id);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--yes');
    expect((await listed(queue)).map((m) => m.status)).toEqual(['DEAD']);
  });

  it('leaves a message that is not dead alone: exit code 5 with a hint', async () => {
    const { topic, queue } = await topicWithQueue();
    await admin('publish', topic, 'alive');
    const [message] = await listed(queue);
    const result = await admin('dlq:delete', message.message_id, '--yes');
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toContain('Only dead messages can be replayed or deleted');
  });

  it('an unknown message is exit code 4', async () => {
    const result = await admin('dlq:replay', '3f2a9c1e-5b7d-4e8a-9c21-7d4e5f6a8b90');
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain(
      '`miniqueue messages:list QUEUE` and `miniqueue dlq:list` show message ids; an acked message is kept only for the acked retention of its queue.',
    );
  });
});

describe('status', () => {
  it('shows the overview and one row per queue', async () => {
    const { topic, queue } = await topicWithQueue();
    await admin('publish', topic, 'waiting');
    const result = await admin('status');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^topics\s+\d+\nqueues\s+\d+\npending\s+\d+\nunacked\s+\d+\nacked\s+\d+\ndead\s+\d+\n\n/);
    expect(result.stdout).toMatch(/QUEUE\s+TOPIC\s+PENDING\s+UNACKED\s+ACKED\s+DEAD\s+OLDEST PENDING\n/);
    expect(result.stdout).toMatch(new RegExp(`${queue}\\s+${topic}\\s+1\\s+0\\s+0\\s+0\\s+\\d+s\\n`));
  });

  it('--json has the overview and the per-queue stats', async () => {
    const result = json(await admin('status', '--json'));
    expect(Object.keys(result.overview).sort()).toEqual(['acked', 'dead', 'pending', 'queues', 'topics', 'unacked']);
    expect(Object.keys(result.queues[0]).sort()).toEqual([
      'acked',
      'acked_last_10_minutes',
      'acked_last_5_minutes',
      'acked_per_second',
      'attention',
      'dead',
      'dead_last_10_minutes',
      'delivered_last_5_minutes',
      'delivered_per_second',
      'depth_history',
      'enqueued_last_5_minutes',
      'enqueued_per_second',
      'oldest_pending_age_day_average_seconds',
      'oldest_pending_age_seconds',
      'pending',
      'pollers',
      'push_consecutive_failures',
      'queue',
      'topic',
      'unacked',
      'websocket_consumers',
    ]);
    expect(result.overview.queues).toBe(result.queues.length);
  });

  it('counts have thousands separators in the table, bare digits in -o tsv', async () => {
    const { topic, queue } = await topicWithQueue();
    const batch = Array.from({ length: 500 }, (_, n) => ({ payload: `m${n}` }));
    for (const _ of [1, 2, 3]) expect((await broker.post(`/api/v1/topics/${topic}/messages/batch`, { messages: batch }, broker.adminKey)).status).toBe(201);
    const table = await admin('status');
    expect(table.stdout).toMatch(new RegExp(`${queue}\\s+${topic}\\s+1,500\\s+0\\s+0\\s+0\\s`));
    expect(table.stdout).toMatch(/^pending\s+\d{1,3}(,\d{3})+\n/m);
    const tsv = (await admin('status', '-o', 'tsv')).stdout.split('\n').find((line) => line.startsWith(`${queue}\t`));
    expect(tsv?.split('\t').slice(2, 6)).toEqual(['1500', '0', '0', '0']);
  });

  it('needs the view scope', async () => {
    const producer = as(broker, await broker.clientKey('producer-status', ['publish:*']));
    const result = await producer('status');
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toContain('This needs the scope view');
  });
});
