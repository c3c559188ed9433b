import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, startBroker, tempConfigDir, type TestBroker } from './helpers/broker.js';
import { json, spawnCli } from './helpers/cli.js';

const LINES = 10_000;

let broker: TestBroker;
let admin: ReturnType<typeof as>;
let scratch: Awaited<ReturnType<typeof tempConfigDir>>;

beforeAll(async () => {
  broker = await startBroker();
  admin = as(broker);
  scratch = await tempConfigDir();
});
afterAll(async () => {
  await broker?.stop();
  await scratch?.remove();
});

async function rows(queue: string): Promise<{ total: number; distinct: number }> {
  const {
    rows: [row],
  } = await broker.pool.query<{ total: string; distinct: string }>(
    'SELECT count(*) AS total, count(DISTINCT payload) AS distinct FROM message WHERE queue_name = $1',
    [queue],
  );
  return { total: Number(row.total), distinct: Number(row.distinct) };
}

async function jsonLinesFile(name: string, lines: string[]): Promise<string> {
  const file = path.join(scratch.dir, name);
  await writeFile(file, `${lines.join('\n')}\n`);
  return file;
}

describe('publish --file', () => {
  it(`publishes a ${LINES.toLocaleString('en-US')}-line file with a progress bar, each message stored once per queue`, async () => {
    await admin('topics:create', 'import');
    await admin('queues:create', 'import-a', '--topic', 'import');
    await admin('queues:create', 'import-b', '--topic', 'import');
    const file = await jsonLinesFile(
      'orders.jsonl',
      Array.from({ length: LINES }, (_, n) => JSON.stringify({ orderId: n })),
    );

    const result = await admin('publish', 'import', '--file', file, '--idempotency-key', 'import-1', '--progress');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('Published 10,000 messages to import; queues: import-a, import-b.\n');
    expect(result.stderr).toMatch(/publishing \|.*\| 0\/10000 messages/);
    expect(result.stderr).toMatch(/publishing \|=+\| 10000\/10000 messages \| 100%/);
    expect(await rows('import-a')).toEqual({ total: LINES, distinct: LINES });
    expect(await rows('import-b')).toEqual({ total: LINES, distinct: LINES });

    // The same file again, with the same key: every line is recognised, nothing is stored twice.
    const again = json(await admin('publish', 'import', '--file', file, '--idempotency-key', 'import-1', '--json'));
    expect(again).toEqual({ topic: 'import', published: 0, duplicates: LINES, queues: ['import-a', 'import-b'] });
    expect(await rows('import-a')).toEqual({ total: LINES, distinct: LINES });
  }, 180_000);

  it('checks every line is JSON before publishing anything', async () => {
    await admin('topics:create', 'checked');
    await admin('queues:create', 'checked-queue', '--topic', 'checked');
    const file = await jsonLinesFile('broken.jsonl', ['{"ok":1}', '', '{"ok":2}', '{"broken":', '{"ok":3}']);
    const result = await admin('publish', 'checked', '--file', file);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(`Error: Line 4 of ${file} is not valid JSON\nHint: Each line must be one JSON value. Nothing was published.\n`);
    expect(await rows('checked-queue')).toEqual({ total: 0, distinct: 0 });
  });

  it('skips blank lines and applies --header and --delay to every message', async () => {
    await admin('topics:create', 'blanks');
    await admin('queues:create', 'blanks-queue', '--topic', 'blanks');
    const file = await jsonLinesFile('blanks.jsonl', ['1', '', '  ', '"two"', '{"three":3}']);
    const result = json(await admin('publish', 'blanks', '-f', file, '-H', 'source=import', '--delay', '5', '--json'));
    expect(result).toEqual({ topic: 'blanks', published: 3, duplicates: 0, queues: ['blanks-queue'] });
    const page = json(await admin('messages:list', 'blanks-queue', '--json'));
    expect(page.items.map((m: { payload: string }) => m.payload)).toEqual(['1', '"two"', '{"three":3}']);
    expect(page.items.every((m: { headers: object }) => JSON.stringify(m.headers) === '{"source":"import"}')).toBe(true);
  });

  it('reads the lines from standard input with --file -', async () => {
    await admin('topics:create', 'piped');
    await admin('queues:create', 'piped-queue', '--topic', 'piped');
    const result = await spawnCli(['publish', 'piped', '--file', '-', '--json'], {
      env: { MINIQUEUE_URL: broker.url, MINIQUEUE_API_KEY: broker.adminKey },
      input: '{"a":1}\r\n{"a":2}\n',
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(json(result)).toMatchObject({ published: 2 });
    expect(await rows('piped-queue')).toEqual({ total: 2, distinct: 2 });
  });

  it('a missing file is a usage error', async () => {
    const result = await admin('publish', 'piped', '--file', path.join(scratch.dir, 'missing.jsonl'));
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('Cannot read');
  });
});
