// What a reader of README.md meets first: what MiniQueue is, the quick start, a short example, and
// only then the comparison with other brokers, whose throughput row says what its figures are.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const sections = [...readme.matchAll(/^## (.+)$/gm)].map((match) => match[1]);
const section = (title) => {
  const start = readme.indexOf(`## ${title}\n`);
  assert.notEqual(start, -1, `README.md has a "${title}" section`);
  const end = readme.indexOf('\n## ', start + 3);
  return readme.slice(start, end < 0 ? undefined : end);
};
const codeBlocks = (text) => [...text.matchAll(/```\w*\n([\s\S]*?)```/g)].map((match) => match[1].trimEnd().split('\n'));

test('the quick start, then an example, come before the comparison', () => {
  assert.deepEqual(sections.slice(0, 3), ['Quick start', 'A producer and a consumer', 'How it compares']);
});

test('the quick start is the two commands CI and readers run, as they are', () => {
  const [commands] = codeBlocks(section('Quick start'));
  assert.deepEqual(
    commands.map((line) => line.replace(/\s+#.*$/, '')),
    ['npm ci && npm start', 'npm test'],
  );
});

test('the example is at most ten lines', () => {
  const [example] = codeBlocks(section('A producer and a consumer'));
  assert.ok(example.length <= 10, `${example.length} lines:\n${example.join('\n')}`);
});

test('the throughput row names its reference for what it is, and nothing is called a ceiling that is beaten', () => {
  const row = section('How it compares')
    .split('\n')
    .find((line) => line.startsWith('| Throughput'));
  assert.ok(row, 'the comparison keeps its throughput row');
  assert.match(row, /raw single-row INSERT commits/);
  assert.doesNotMatch(row, /ceiling/);
  assert.doesNotMatch(readme, /reference design/);
});
