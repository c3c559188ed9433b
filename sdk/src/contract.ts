/**
 * What openapi.yaml fixes and a client checks before it asks: name and scope patterns, the
 * limits of a request, the default payload limit and the WebSocket close codes. The generator
 * keeps none of these, so they are written here once, for the CLI, the dashboard and any other
 * program, and test/unit/contract.test.ts fails when they and openapi.yaml part ways.
 */

/** A topic, queue or client name (the server lowercases it first). `.` and `..` are refused. */
export const NAME_PATTERN = /^(?!\.\.?$)[a-zA-Z0-9._-]{1,100}$/;
export const NAME_MAX_LENGTH = 100;

/** A scope a client may be given; `admin` implies the others, `*` matches any topic or queue. */
export const SCOPE_PATTERN = /^(admin|view|metrics|publish:(\*|(?!\.\.?$)[a-zA-Z0-9._-]{1,100})|consume:(\*|(?!\.\.?$)[a-zA-Z0-9._-]{1,100}))$/;

export const isValidName = (name: string): boolean => NAME_PATTERN.test(name);
export const isValidScope = (scope: string): boolean => SCOPE_PATTERN.test(scope);

/** The bounds of requests, as openapi.yaml states them. */
export const LIMITS = {
  /** A payload's UTF-8 bytes under the broker's default limit (MINIQUEUE_MAX_PAYLOAD_BYTES). */
  defaultPayloadBytes: 262_144,
  batchPublishMessages: 500,
  batchAckMessages: 100,
  receiveMaxMessages: 100,
  waitSeconds: 20,
  delaySeconds: 900,
  expiresInSeconds: { min: 1, max: 1_209_600 },
  messageTtlSeconds: { min: 1, max: 1_209_600 },
  priority: { min: 0, max: 9 },
  maxPriority: { min: 1, max: 9 },
  maxInFlightPerKey: { min: 1, max: 10_000 },
  groupKeyLength: 200,
  ackTimeoutSeconds: { min: 1, max: 43_200 },
  maxRetries: { min: 0, max: 100 },
  ackedRetentionHours: { min: 0, max: 8_760 },
  pageSize: 500,
  idempotencyKeyLength: 200,
} as const;

/** Why the broker closed a WebSocket. */
export const CLOSE_CODES = {
  /** The broker is shutting down: reconnect (to another instance). */
  shuttingDown: 1001,
  /** The credential was revoked or rotated, or the session ended: do not reconnect with it. */
  credentialEnded: 1008,
  /** The broker lost its database notification connection: reconnect with a fresh ticket. */
  notificationsLost: 1012,
  /** The queue was deleted. */
  queueDeleted: 4404,
} as const;
