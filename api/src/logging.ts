import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * JSON lines on stdout. Credentials never reach a log line: Authorization and Cookie headers are
 * redacted, request logs carry the path without its query string, and payloads are never logged.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'miniqueue' },
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]', '*.api_key', '*.token'],
        censor: '[redacted]',
      },
    },
    destination,
  );
}
