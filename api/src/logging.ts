import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * Fields of an error that quote what was sent rather than what went wrong: PostgreSQL's `where`,
 * `detail` and `internalQuery` carry the start of a value or a key (a payload, a header), and
 * Node's HTTP parser errors carry `rawPacket`, the request's raw bytes, Authorization included.
 */
const CONTENT_FIELDS = ['where', 'detail', 'internalQuery', 'rawPacket'];

function serializeError(error: unknown): unknown {
  if (!error || typeof error !== 'object') return error;
  // A copy: pino's serializer returns anything that is not an Error as it is, and that is not ours to change.
  const serialized = { ...(pino.stdSerializers.err(error as Error) as unknown as Record<string, unknown>) };
  for (const field of CONTENT_FIELDS) delete serialized[field];
  return serialized;
}

/**
 * JSON lines on stdout. Credentials never reach a log line: Authorization and Cookie headers are
 * redacted, request logs carry the path without its query string, payloads are never logged, and
 * errors are logged without the fields that quote request content.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'miniqueue' },
      serializers: { err: serializeError },
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]', '*.api_key', '*.token'],
        censor: '[redacted]',
      },
    },
    destination,
  );
}
