/**
 * Verifying the signature the broker puts on every push:
 * `MiniQueue-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` (one `v1` per
 * secret that signs; two for an hour after a rotation). Web Crypto only, so it runs in Node 20,
 * Deno, Bun, workers and browsers alike.
 */

export const SIGNATURE_HEADER = 'miniqueue-signature';

/** Why a push was not accepted as the broker's. */
export type PushSignatureProblem = 'missing' | 'malformed' | 'too_old' | 'too_new' | 'no_match';

export class PushSignatureError extends Error {
  constructor(
    readonly problem: PushSignatureProblem,
    message: string,
  ) {
    super(message);
    this.name = 'PushSignatureError';
  }
}

export interface VerifyPushOptions {
  /** The endpoint's secret (`mqwh_…`); during your own switch-over, both the new and the old. */
  secret: string | string[];
  /**
   * How far the signature's time may be from now, in seconds (default 300): a captured push
   * replayed later is refused. Keep the receiver's clock synchronised.
   */
  toleranceSeconds?: number;
  /** Now, in milliseconds since 1970 (for tests). */
  now?: () => number;
}

const encoder = new TextEncoder();

function parseHeader(header: string | string[] | null | undefined): { timestamp: number; signatures: string[] } {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (!value) throw new PushSignatureError('missing', `No ${SIGNATURE_HEADER} header`);
  let timestamp = Number.NaN;
  const signatures: string[] = [];
  for (const part of value.split(',')) {
    const [key, text] = part.trim().split('=', 2);
    if (key === 't' && /^\d{1,12}$/.test(text ?? '')) timestamp = Number(text);
    else if (key === 'v1' && /^[0-9a-f]{64}$/.test(text ?? '')) signatures.push(text as string);
  }
  if (Number.isNaN(timestamp) || signatures.length === 0) throw new PushSignatureError('malformed', `${SIGNATURE_HEADER} has no t= and v1= values`);
  return { timestamp, signatures };
}

async function hmacHex(secret: string, timestamp: number, body: Uint8Array): Promise<string> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const prefix = encoder.encode(`${timestamp}.`);
  const signed = new Uint8Array(prefix.length + body.length);
  signed.set(prefix);
  signed.set(body, prefix.length);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, signed));
  return Array.from(mac, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Compares in time that depends only on the length (both are 64 hex digits here), never on where they differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i += 1) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

/**
 * Checks that `body` (the raw request body, exactly as received: do not parse and re-serialise
 * it) was signed by the broker with one of the secrets, recently. Resolves with the signature's
 * time; rejects with a PushSignatureError (answer such a request 401).
 */
export async function verifyPushSignature(
  body: string | Uint8Array,
  header: string | string[] | null | undefined,
  options: VerifyPushOptions,
): Promise<{ timestamp: number }> {
  const { timestamp, signatures } = parseHeader(header);
  const tolerance = options.toleranceSeconds ?? 300;
  const age = (options.now?.() ?? Date.now()) / 1000 - timestamp;
  if (age > tolerance) throw new PushSignatureError('too_old', `The signature is ${Math.round(age)} s old (tolerance ${tolerance} s)`);
  if (age < -tolerance) throw new PushSignatureError('too_new', `The signature is ${Math.round(-age)} s in the future (tolerance ${tolerance} s)`);
  const bytes = typeof body === 'string' ? encoder.encode(body) : body;
  const secrets = Array.isArray(options.secret) ? options.secret : [options.secret];
  let matched = false;
  for (const secret of secrets) {
    const expected = await hmacHex(secret, timestamp, bytes);
    // Every signature is compared, matched or not, so the time taken says nothing of which matched.
    for (const signature of signatures) matched = constantTimeEqual(expected, signature) || matched;
  }
  if (!matched) throw new PushSignatureError('no_match', 'No signature matches the secret');
  return { timestamp };
}
