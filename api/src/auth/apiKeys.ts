import { hash, randomBytes } from 'node:crypto';

export const API_KEY_PREFIX = 'mq_';
const KEY_PREFIX_LENGTH = 12;

export interface NewApiKey {
  key: string;
  hash: Buffer;
  prefix: string;
}

/** Keys carry 256 random bits; a fast hash is enough for secrets nobody chose by hand. */
export const hashSecret = (secret: string): Buffer => hash('sha256', secret, 'buffer');

export function apiKeyFrom(key: string): NewApiKey {
  return { key, hash: hashSecret(key), prefix: key.slice(0, KEY_PREFIX_LENGTH) };
}

export function newApiKey(): NewApiKey {
  return apiKeyFrom(API_KEY_PREFIX + randomBytes(32).toString('base64url'));
}
