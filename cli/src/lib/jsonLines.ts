import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { EXIT, Failure } from './failure.js';
import { readStdin } from './prompt.js';

export interface Line {
  /** 1-based, counting blank lines too, so it matches what an editor shows. */
  number: number;
  text: string;
}

/** The non-blank lines of a file, readable more than once (a count, then the publish). */
export type LineSource = () => AsyncIterable<Line>;

/** A file's lines, streamed; `-` is standard input, which is read once and kept in memory. */
export async function openLines(file: string): Promise<LineSource> {
  if (file === '-') {
    const lines = [...numbered((await readStdin()).split('\n'))];
    return async function* () {
      yield* lines;
    };
  }
  await access(file).catch(() => {
    throw new Failure(`Cannot read ${file}`, 'Check the path given to --file.', EXIT.usage);
  });
  return () => streamLines(file);
}

async function* streamLines(file: string): AsyncIterable<Line> {
  const reader = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  let number = 0;
  for await (const text of reader) {
    number += 1;
    if (text.trim() !== '') yield { number, text };
  }
}

function* numbered(texts: string[]): Iterable<Line> {
  for (const [index, raw] of texts.entries()) {
    const text = raw.replace(/\r$/, '');
    if (text.trim() !== '') yield { number: index + 1, text };
  }
}

/** Checks every line is one JSON value before anything is sent, and counts them (the bar's total). */
export async function countJsonLines(source: LineSource, label: string): Promise<number> {
  let count = 0;
  for await (const line of source()) {
    try {
      JSON.parse(line.text);
    } catch {
      throw new Failure(`Line ${line.number} of ${label} is not valid JSON`, 'Each line must be one JSON value. Nothing was published.', EXIT.usage);
    }
    count += 1;
  }
  return count;
}

export async function* batchesOf(source: LineSource, size: number): AsyncIterable<Line[]> {
  let batch: Line[] = [];
  for await (const line of source()) {
    batch.push(line);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}
