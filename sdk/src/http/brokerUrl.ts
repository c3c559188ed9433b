const SCHEMES = new Set(['http:', 'https:']);

/**
 * The broker's base URL, without trailing slashes, or a TypeError quoting what was given. Only
 * http: and https: are accepted: the API key goes in every request's Authorization header, and a
 * typo (`htps://`, `ws://`, a bare host) must not send it somewhere, or some way, nobody meant.
 */
export function brokerUrl(value: unknown): string {
  const quoted = typeof value === 'string' ? JSON.stringify(value) : String(value);
  let parsed: URL;
  try {
    parsed = new URL(String(value));
  } catch {
    throw new TypeError(`MiniQueue: url must be an absolute http: or https: URL, such as http://localhost:8080; got ${quoted}`);
  }
  if (typeof value !== 'string' || !SCHEMES.has(parsed.protocol)) {
    throw new TypeError(`MiniQueue: url must be an http: or https: URL (the API key is sent with every request); got ${quoted}`);
  }
  return value.replace(/\/+$/, '');
}
