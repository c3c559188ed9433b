import type { Server } from '@hapi/hapi';
import type { Logger } from '../logging.js';

/** Lines per window; what is over is counted and reported with the next line written. */
const LINES_PER_WINDOW = 10;
const WINDOW_MS = 60_000;

interface ParserError {
  code?: string;
  reason?: string;
  bytesParsed?: number;
}

/**
 * Requests Node's HTTP parser refuses (a header block over 16 KiB, a control byte in a header,
 * a request timeout) reach hapi as client errors, which hapi-pino would log at error level with
 * `rawPacket`: the raw request, Authorization header and all, 50–60 KB a line, as many lines as
 * anyone cares to send. They are the client's fault, so: a warning, with the parser's code and
 * reason only, at most ten a minute, the rest counted.
 */
export function logClientErrors(server: Server, logger: Logger): void {
  let windowStart = 0;
  let written = 0;
  let suppressed = 0;
  server.events.on({ name: 'log', filter: { tags: ['connection', 'client', 'error'], all: true } }, (event) => {
    const now = Date.now();
    if (now - windowStart >= WINDOW_MS) {
      windowStart = now;
      written = 0;
    }
    if (written >= LINES_PER_WINDOW) {
      suppressed += 1;
      return;
    }
    written += 1;
    const { code, reason, bytesParsed } = (event.error ?? {}) as ParserError;
    logger.warn(
      { code, reason, bytes_parsed: bytesParsed, ...(suppressed > 0 ? { suppressed } : {}) },
      'HTTP client error (refused by the parser, or timed out)',
    );
    suppressed = 0;
  });
}

/** hapi-pino must leave these events to logClientErrors (its `ignoredEventTags`). */
export const CLIENT_ERROR_TAG = 'client';
