import type { Client, ClientWithKey } from '@miniqueue/sdk';
import { formatTime } from './format.js';

/** What people read about a client (never its key), as label and value. */
export function clientFacts(client: Client | ClientWithKey): Array<[string, string]> {
  return [
    ['name', client.name],
    ['scopes', client.scopes.join(', ')],
    ['key prefix', client.key_prefix],
    ['created', formatTime(client.created_at)],
  ];
}
