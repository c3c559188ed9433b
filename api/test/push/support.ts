import { randomBytes } from 'node:crypto';

/** A broker that may push only to loopback, over http, with a first backoff of one second. */
export const PUSH_ENV = {
  MINIQUEUE_PUSH_SECRET_KEY: randomBytes(32).toString('base64url'),
  MINIQUEUE_PUSH_PUBLIC: 'false',
  MINIQUEUE_PUSH_ALLOWED_NETWORKS: '127.0.0.0/8',
  MINIQUEUE_PUSH_ALLOW_HTTP_LOOPBACK: 'true',
  MINIQUEUE_PUSH_BACKOFF_SECONDS: '1',
};
