import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { capturedLogLines, secretsIn } from '../helpers/logCapture.js';
import { rawExchange } from '../helpers/rawSocket.js';

/**
 * Requests that Node's HTTP parser refuses never reach a route: hapi hears of them as client
 * errors carrying `rawPacket`, the raw request, Authorization header included. They are logged
 * without those bytes, as warnings (the client's fault, not the broker's), and at most a few a
 * minute, however many arrive.
 */
let mq: TestBroker;
beforeAll(async () => {
  mq = await startTestBroker({ listen: true });
});
afterAll(() => mq.stop());

const request = (headers: string) =>
  rawExchange(
    mq.url,
    (socket) => void socket.write(`GET /api/v1/topics HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${mq.adminKey}\r\n${headers}\r\n`),
    3_000,
  );
const parserLines = () => capturedLogLines().filter((line) => line.includes('HTTP client error'));
const levelOf = (line: string) => JSON.parse(line).level as number;

describe('requests the HTTP parser refuses', () => {
  it('are answered 400 and logged once each at warn, with the reason and without the raw bytes', async () => {
    const oversized = await request(`Cookie: ${'a'.repeat(17 * 1024)}\r\n`);
    const controlByte = await request('X-Trace: abc\u0001def\r\n');
    expect(oversized.status).toBe(400);
    expect(controlByte.status).toBe(400);

    const lines = parserLines();
    expect(lines).toHaveLength(2);
    expect(lines.map(levelOf)).toEqual([40, 40]);
    expect(lines.map((line) => JSON.parse(line).code)).toEqual(['HPE_HEADER_OVERFLOW', 'HPE_INVALID_HEADER_TOKEN']);
    for (const line of lines) {
      expect(line).not.toContain('rawPacket');
      expect(line.length).toBeLessThan(1_000);
    }
    expect(capturedLogLines().flatMap(secretsIn)).toEqual([]);
    expect(capturedLogLines().filter((line) => line.includes(mq.adminKey))).toEqual([]);
  });

  it('are logged at most 10 times a minute; the rest are counted, not written', async () => {
    const before = parserLines().length;
    for (let i = 0; i < 40; i += 1) await request('X-Trace: \u0001\r\n');
    expect(parserLines().length - before).toBeLessThanOrEqual(10);
    expect(capturedLogLines().filter((line) => levelOf(line) >= 50)).toEqual([]);
  });
});
