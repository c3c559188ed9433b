import { createInterface } from 'node:readline/promises';
import { Writable } from 'node:stream';
import { EXIT, Failure } from './failure.js';

export function interactive(): boolean {
  return Boolean(process.stdin.isTTY);
}

/** Asks on the terminal; without one, the caller must have said --yes. */
export async function confirm(question: string): Promise<boolean> {
  if (!interactive()) throw new Failure('Refusing to do this without confirmation', 'Add --yes to confirm when not running in a terminal.', EXIT.usage);
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(`${question} [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

/** Reads a secret from the terminal without echoing it. */
export async function askSecret(question: string): Promise<string> {
  process.stderr.write(question);
  const silent = new Writable({ write: (_chunk, _encoding, done) => done() });
  const rl = createInterface({ input: process.stdin, output: silent, terminal: true });
  try {
    return (await rl.question('')).trim();
  } finally {
    rl.close();
    process.stderr.write('\n');
  }
}

/** All of standard input, as text. */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
