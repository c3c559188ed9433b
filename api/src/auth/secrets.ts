import { randomBytes } from 'node:crypto';
import { hashSecret } from './apiKeys.js';

export interface NewSecret {
  secret: string;
  hash: Buffer;
}

/**
 * A bearer secret: a prefix that says what it is (`mqs_`, `lc_`, `wst_`), then 256 random bits.
 * Only the hash is ever stored.
 */
export function newSecret(prefix: string): NewSecret {
  const secret = prefix + randomBytes(32).toString('base64url');
  return { secret, hash: hashSecret(secret) };
}

export { hashSecret };
