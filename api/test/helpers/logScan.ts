import { afterAll } from 'vitest';
import { secretsIn, takeCapturedLogLines } from './logCapture.js';

/**
 * A setup file: after each test file, every log line its brokers wrote is searched for secrets
 * (`mq_`, `mqs_`, `lc_`, `wst_` and key material, in text or in logged bytes). One found fails
 * the file, whichever test made the broker log it.
 */
afterAll(() => {
  const lines = takeCapturedLogLines();
  const leaks = lines.flatMap((line) => secretsIn(line).map((secret) => `${secret} in: ${line.slice(0, 200)}`));
  if (leaks.length > 0) throw new Error(`${leaks.length} secret(s) reached the logs:\n${leaks.slice(0, 5).join('\n')}`);
});
