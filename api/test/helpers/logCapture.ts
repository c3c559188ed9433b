/**
 * Every line any broker of this test file logged: the in-process ones (test/helpers/broker.ts)
 * and the spawned ones (resilience/support/brokerProcess.ts). `logScan.ts` reads them after the
 * file and fails it if one holds a secret.
 */
const lines: string[] = [];

export const captureLogLine = (line: string): void => void lines.push(line);

/** The lines captured so far in this file (a copy). */
export const capturedLogLines = (): string[] => [...lines];

export function takeCapturedLogLines(): string[] {
  return lines.splice(0, lines.length);
}

/** Our secrets: a prefix, then at least 256 bits in base64url (43 characters or more). */
const SECRET = /(?<![A-Za-z0-9_-])(?:mq|mqs|lc|wst|mqwh)_[A-Za-z0-9_-]{43,}/g;

/**
 * Text hidden in a line as bytes: pino writes a Buffer as {"type":"Buffer","data":[71,69,...]};
 * a raw request logged that way decodes to its headers. (util.inspect shows 50 bytes at most.)
 */
const decodedBytes = (line: string): string[] =>
  [...line.matchAll(/\[(\d{1,3}(?:,\d{1,3}){7,})\]/g)].map((match) => Buffer.from(match[1].split(',').map(Number)).toString('latin1'));

/** The secrets a log line holds, as text or as bytes (each cut to its prefix and 6 characters). */
export function secretsIn(line: string): string[] {
  return [line, ...decodedBytes(line)].flatMap((text) => [...text.matchAll(SECRET)].map((match) => `${match[0].slice(0, 10)}…`));
}
