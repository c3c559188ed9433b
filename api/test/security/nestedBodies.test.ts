import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_DEPTH, shapeProblem } from '../../src/http/bodyShape.js';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { capturedLogLines } from '../helpers/logCapture.js';

/**
 * A body nested far deeper than any body of the contract costs nothing to refuse: the shape check
 * walks it without recursion and stops at the first level too deep, so a small anonymous body
 * can neither overflow the stack (a 500) nor buy event-loop time (the old walk copied the path at
 * every level: 0.2 s for 7 KB of brackets, stalling every other client).
 */
let mq: TestBroker;
beforeAll(async () => {
  // Off, so every body below reaches the shape check: the attack needs no more than the limit allows.
  mq = await startTestBroker({ env: { MINIQUEUE_RATE_LIMIT_ENABLED: 'false' } });
});
afterAll(() => mq.stop());

const EXCHANGE = '/api/v1/auth/exchange';
const raw = (body: string) => mq.request('POST', EXCHANGE, { rawBody: body, headers: { 'content-type': 'application/json' } });
const brackets = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const nestedObjects = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
/** The body limit is 64 KB: the deepest body that fits. */
const DEEPEST = brackets(32_000);
/** The costliest for a recursive walk: as deep as it goes without overflowing the stack. */
const COSTLIEST = brackets(3_500);
const errorLines = () => capturedLogLines().filter((line) => line.startsWith('{') && JSON.parse(line).level >= 50);

describe('a body nested deeper than the contract', () => {
  it.each([
    ['3,500 levels of arrays (7 KB)', brackets(3_500)],
    ['5,000 levels of arrays, past the old stack overflow', brackets(5_000)],
    ['32,000 levels of arrays (the most 64 KB holds)', DEEPEST],
    ['10,000 levels of objects', nestedObjects(10_000)],
  ])('%s is refused with 400, naming where it is too deep', async (_name, body) => {
    const response = await raw(body);
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('validation_failed');
    expect(response.body.errors).toHaveLength(1);
    expect(response.body.errors[0].message).toBe(`is nested more than ${MAX_DEPTH} levels deep`);
    expect(JSON.stringify(response.body).length).toBeLessThan(1_000);
  });

  it('names the path to the first level too deep', async () => {
    const response = await raw(nestedObjects(MAX_DEPTH + 5));
    expect(response.body.errors[0].field).toBe(Array(MAX_DEPTH).fill('a').join('.'));
  });

  it('is refused before authentication matters or the route validates it', async () => {
    const response = await mq.request('POST', '/api/v1/topics', {
      key: mq.adminKey,
      rawBody: `{"name":${brackets(50)}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(response.body.errors[0].message).toBe(`is nested more than ${MAX_DEPTH} levels deep`);
  });

  it('logs nothing at error level', () => {
    expect(errorLines()).toEqual([]);
  });
});

type Schema = {
  $ref?: string;
  type?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: Schema | boolean;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
};
const contract = parse(readFileSync(new URL('../../../openapi.yaml', import.meta.url), 'utf8'));

/** Levels of objects and arrays a value of this schema can have (its schemas are not recursive). */
function depthOf(schema: Schema): number {
  if (schema.$ref) return depthOf(contract.components.schemas[schema.$ref.split('/').pop()!]);
  const alternatives = [...(schema.oneOf ?? []), ...(schema.anyOf ?? []), ...(schema.allOf ?? [])];
  const children = [...Object.values(schema.properties ?? {}), ...(schema.items ? [schema.items] : [])];
  if (typeof schema.additionalProperties === 'object') children.push(schema.additionalProperties);
  const own = schema.type === 'object' || schema.type === 'array' || children.length > 0 ? 1 : 0;
  return Math.max(own + Math.max(0, ...children.map(depthOf)), ...alternatives.map(depthOf));
}

const requestBodies = (): Schema[] =>
  Object.values(contract.paths as Record<string, Record<string, { requestBody?: { content?: Record<string, { schema: Schema }> } }>>)
    .flatMap((operations) => Object.values(operations))
    .flatMap((operation) => Object.values(operation?.requestBody?.content ?? {}).map((content) => content.schema));

describe('the deepest bodies the contract takes', () => {
  it('are within the limit, which is only a few levels deeper', () => {
    const deepest = Math.max(...requestBodies().map(depthOf));
    expect(deepest).toBe(8);
    expect(MAX_DEPTH).toBeGreaterThanOrEqual(deepest);
    expect(MAX_DEPTH).toBeLessThanOrEqual(deepest + 4);
  });

  it('a queue filter nested as deep as the contract allows is accepted', async () => {
    await mq.post('/api/v1/topics', { name: 'deep' }, mq.adminKey);
    const condition = { header: 'region', one_of: ['eu', 'us'] };
    const filter = { and: [{ or: [{ not: condition }, condition] }, { not: condition }] };
    const response = await mq.post('/api/v1/queues', { name: 'deep-q', topic_name: 'deep', filter }, mq.adminKey);
    expect(response.status).toBe(201);
  });

  it('exactly MAX_DEPTH levels pass the shape check; one more does not', () => {
    let atLimit: unknown = 1;
    for (let level = 0; level < MAX_DEPTH; level += 1) atLimit = [atLimit];
    expect(shapeProblem(atLimit)).toBeNull();
    expect(shapeProblem([atLimit])).toEqual({ field: Array(MAX_DEPTH).fill('0').join('.'), message: `is nested more than ${MAX_DEPTH} levels deep` });
  });
});

describe('the walk is iterative and bounded', () => {
  it('a million levels (built in memory, past any stack) are refused without recursion', () => {
    let deep: unknown = {};
    for (let level = 0; level < 1_000_000; level += 1) deep = { a: deep };
    expect(shapeProblem(deep)?.message).toBe(`is nested more than ${MAX_DEPTH} levels deep`);
  });

  it('never looks below the first level too deep', () => {
    const trap = Object.defineProperty({}, 'below', {
      enumerable: true,
      get() {
        throw new Error('the walk read below the depth limit');
      },
    });
    let body: unknown = trap;
    for (let level = 0; level < MAX_DEPTH; level += 1) body = { a: body };
    expect(shapeProblem(body)?.message).toBe(`is nested more than ${MAX_DEPTH} levels deep`);
  });

  it('ten concurrent worst-case bodies take about as long as ten flat bodies of their size', async () => {
    // Loose by design: a comparison with flat bodies of the same size, sent the same way, not a
    // wall-clock target (speed targets belong in the benchmarks). Requests share one event loop
    // here, so the time the ten take is what they keep another client waiting: the old walk took
    // about 2 s for the ten deep bodies, against a few milliseconds for the flat ones.
    const flat = JSON.stringify({ code: 'x'.repeat(COSTLIEST.length - 11) });
    const burst = async (body: string) => {
      const started = performance.now();
      const [probe, ...answers] = await Promise.all([mq.get('/api/v1/auth/me', mq.adminKey), ...Array.from({ length: 10 }, () => raw(body))]);
      const tookMs = performance.now() - started;
      expect(probe.status).toBe(200);
      return { tookMs, statuses: answers.map((answer) => answer.status) };
    };
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const deep: number[] = [];
    const wide: number[] = [];
    for (let round = 0; round < 5; round += 1) {
      const nested = await burst(COSTLIEST);
      expect(nested.statuses).toEqual(Array(10).fill(400));
      deep.push(nested.tookMs);
      wide.push((await burst(flat)).tookMs);
    }
    expect(median(deep)).toBeLessThan(Math.max(5 * median(wide), 100));
  });
});
