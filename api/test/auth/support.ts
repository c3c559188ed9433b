import { startTestBroker, type TestBroker, type TestBrokerOptions } from '../helpers/broker.js';

/** Every line the broker logs (pino at trace) and every hapi log event, as text. */
export type LogLines = string[];

/** A test broker whose every log line is kept in `logs`, so a test can prove no secret reaches a log. */
export function startLoggedBroker(options: TestBrokerOptions & { logs: LogLines }): Promise<TestBroker> {
  return startTestBroker(options);
}

/** Our secrets: a prefix, then 256 bits in base64url (43 characters). */
const SECRET = /\b(?:mq|mqs|lc|wst)_[A-Za-z0-9_-]{43}/;

/** Throws when any log line holds a secret: one of ours by its shape, or any of `known` verbatim. */
export function expectNoSecretsIn(logs: LogLines, known: string[] = []): void {
  if (logs.length === 0) throw new Error('no log lines were captured: the capture is broken');
  for (const line of logs) {
    const found = SECRET.exec(line)?.[0] ?? known.find((secret) => line.includes(secret));
    if (found) throw new Error(`a log line holds the secret ${found.slice(0, 8)}…: ${line.slice(0, 300)}`);
  }
}
