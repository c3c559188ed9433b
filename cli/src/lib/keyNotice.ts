import type { ClientWithKey } from '@miniqueue/sdk';
import { renderPairs } from './table.js';
import { bold, yellow } from './style.js';
import { clientFacts } from './clientView.js';

/**
 * The only place a key is ever printed. The key goes to stdout on its own line, so
 * `... | tail -n 1` captures it; the warning goes to stderr, so it never ends up in a captured key.
 */
export function showNewKey(client: ClientWithKey, log: (line: string) => void): void {
  log(renderPairs(clientFacts(client)));
  process.stderr.write(`${yellow(bold('Copy this API key now: it will not be shown again.'))}\n`);
  log(client.api_key);
}
