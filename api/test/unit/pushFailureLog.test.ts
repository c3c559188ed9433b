import { describe, expect, it } from 'vitest';
import { FAILURE_LOG_INTERVAL_MS, PushFailureLog } from '../../src/push/failureLog.js';

/** The failing endpoint's lines, with a clock of the test's own. */
function logAt() {
  const clock = { now: 1_000_000 };
  const lines: { level: string; message: string; fields: Record<string, unknown> }[] = [];
  const log = new PushFailureLog(
    (level, message, fields) => lines.push({ level, message, fields }),
    () => clock.now,
  );
  return { clock, lines, log };
}

const URL_WITH_TOKEN = 'https://hooks.example.com/in?token=abc';

describe('the push failure log', () => {
  it('writes the first failure at once, then one line a minute with how many failed since', () => {
    const { clock, lines, log } = logAt();
    log.failed('q', URL_WITH_TOKEN, 'http_5xx', 'push endpoint answered 503');
    for (let i = 0; i < 9; i += 1) {
      clock.now += 1_000;
      log.failed('q', URL_WITH_TOKEN, 'timeout', 'push delivery failed (timeout)');
    }
    expect(lines).toHaveLength(1);
    clock.now += FAILURE_LOG_INTERVAL_MS;
    log.failed('q', URL_WITH_TOKEN, 'connection', 'push delivery failed (connection: ECONNRESET)');
    expect(lines.map((line) => [line.level, line.message, line.fields.failures, line.fields.reason])).toEqual([
      ['warn', 'push deliveries failing', 1, 'http_5xx'],
      ['warn', 'push deliveries failing', 10, 'connection'],
    ]);
    expect(JSON.stringify(lines)).not.toContain('token=abc');
    expect(lines[0].fields.url).toBe('https://hooks.example.com/in?redacted');
  });

  it('keeps one endpoint from silencing another', () => {
    const { lines, log } = logAt();
    log.failed('a', 'https://a.example.com/', 'http_4xx', 'push endpoint answered 404');
    log.failed('b', 'https://b.example.com/', 'http_4xx', 'push endpoint answered 404');
    expect(lines.map((line) => line.fields.queue)).toEqual(['a', 'b']);
  });

  it('says once when a failing endpoint succeeds again, with the failures not yet logged', () => {
    const { clock, lines, log } = logAt();
    log.failed('q', URL_WITH_TOKEN, 'http_5xx', 'push endpoint answered 500');
    log.failed('q', URL_WITH_TOKEN, 'http_5xx', 'push endpoint answered 500');
    log.succeeded('q', URL_WITH_TOKEN);
    log.succeeded('q', URL_WITH_TOKEN);
    expect(lines.map((line) => [line.level, line.message, line.fields.failures])).toEqual([
      ['warn', 'push deliveries failing', 1],
      ['info', 'push deliveries succeed again', 1],
    ]);
    // Flapping within the minute adds no line; its failures wait for the next one.
    log.failed('q', URL_WITH_TOKEN, 'http_5xx', 'push endpoint answered 500');
    log.succeeded('q', URL_WITH_TOKEN);
    expect(lines).toHaveLength(2);
    clock.now += FAILURE_LOG_INTERVAL_MS;
    log.failed('q', URL_WITH_TOKEN, 'http_5xx', 'push endpoint answered 500');
    expect(lines.at(-1)?.fields.failures).toBe(2);
  });

  it('says nothing of an endpoint that only succeeds', () => {
    const { lines, log } = logAt();
    log.succeeded('q', URL_WITH_TOKEN);
    expect(lines).toEqual([]);
  });
});
