import { EXIT, Failure } from './failure.js';

/** `name=value` or `name: value` pairs (as curl writes them) into a header object. */
export function parseHeaders(pairs: string[] | undefined): Record<string, string> | undefined {
  if (!pairs || pairs.length === 0) return undefined;
  const headers: Record<string, string> = {};
  for (const pair of pairs) {
    const match = /^([^=:]+)[=:](.*)$/s.exec(pair);
    const name = match?.[1].trim();
    if (!match || !name) throw new Failure(`Not a header: ${pair}`, 'Write headers as --header name=value.', EXIT.usage);
    headers[name] = match[2].trim();
  }
  return headers;
}
