import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/**
 * A push endpoint's signing secret. The broker must sign with it, so it cannot be kept as a hash
 * the way API keys are: it is kept encrypted (AES-256-GCM) under MINIQUEUE_PUSH_SECRET_KEY, which
 * lives in the instances' environment and never in the database. A dump or backup of the database
 * then holds no usable secret; an instance decrypts it only to sign. The queue's name is bound in
 * as associated data, so a ciphertext copied onto another queue's row does not decrypt.
 */
export const PUSH_SECRET_PREFIX = 'mqwh_';

export function newPushSecret(): string {
  return `${PUSH_SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** iv.tag.ciphertext, each base64url. */
export function encryptSecret(key: Buffer, queue: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(queue, 'utf8'));
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), sealed].map((part) => part.toString('base64url')).join('.');
}

export function decryptSecret(key: Buffer, queue: string, stored: string): string {
  const [iv, tag, sealed] = stored.split('.').map((part) => Buffer.from(part, 'base64url'));
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAAD(Buffer.from(queue, 'utf8'));
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(sealed), decipher.final()]).toString('utf8');
}

/** The header's value: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`, one v1 per secret. */
export function signatureHeader(secrets: string[], timestamp: number, body: string): string {
  const signed = `${timestamp}.${body}`;
  return [`t=${timestamp}`, ...secrets.map((secret) => `v1=${createHmac('sha256', secret).update(signed).digest('hex')}`)].join(',');
}
