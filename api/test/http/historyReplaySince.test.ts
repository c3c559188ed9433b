import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { capturedLogLines } from '../helpers/logCapture.js';
import { topology } from '../helpers/fixtures.js';

/**
 * `since` is an RFC 3339 date-time: four-digit years. ISO 8601's expanded years (+010000, -000001)
 * and offsets that carry a time past the year 9999 in UTC are refused with 400, where they used
 * to reach PostgreSQL as text it cannot read (a 500).
 */
let mq: TestBroker;
beforeAll(async () => {
  mq = await startTestBroker({ env: { MINIQUEUE_ACKED_RETENTION_HOURS: '24' } });
  await topology(mq, 'years', [{ name: 'years-q' }]);
});
afterAll(() => mq.stop());

const replay = (since: string) => mq.post('/api/v1/queues/years-q/replay', { since, dry_run: true }, mq.adminKey);

describe('replay since', () => {
  it.each(['+010000-01-01T00:00:00Z', '+275760-09-13T00:00:00Z', '-000001-01-01T00:00:00Z', '-271821-04-20T00:00:00Z', '9999-12-31T23:30:00-01:00'])(
    '%s is 400 naming since',
    async (since) => {
      const refused = await replay(since);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ code: 'validation_failed', errors: [{ field: 'since', message: expect.stringMatching(/0001 to 9999/) }] });
    },
  );

  it('logs nothing at error level', () => {
    expect(capturedLogLines().filter((line) => line.startsWith('{') && JSON.parse(line).level >= 50)).toEqual([]);
  });

  it('takes the first and the last four-digit years', async () => {
    // Before the retention reaches back: refused for that, after the date was read.
    expect((await replay('0001-01-01T00:00:00Z')).body.code).toBe('history_not_retained');
    expect((await replay('9999-12-31T23:59:59Z')).status).toBe(200);
  });
});
