import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logging.js';

function logged(write: (logger: ReturnType<typeof createLogger>) => void): string {
  const lines: string[] = [];
  write(createLogger('trace', { write: (line: string) => void lines.push(line) }));
  return lines.join('');
}

describe('what an error log line leaves out', () => {
  it('quotes no content from a database error (where, detail, internal query) nor raw request bytes', () => {
    const error = Object.assign(new Error('unsupported Unicode escape sequence'), {
      code: '22P05',
      where: 'JSON data, line 1: {"trace":"content-of-the-message',
      detail: 'Key (name)=(content-of-the-message) already exists.',
      internalQuery: 'SELECT content-of-the-message',
      rawPacket: Buffer.from('Authorization: Bearer content-of-the-message'),
    });
    const line = logged((logger) => logger.error({ err: error }, 'publish failed'));
    expect(line).toContain('unsupported Unicode escape sequence');
    expect(line).toContain('22P05');
    expect(line).not.toContain('content-of-the-message');
    expect(line).not.toContain('rawPacket');
  });
});
