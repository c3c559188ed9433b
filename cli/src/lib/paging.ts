import { Flags } from '@oclif/core';
import type { Message, MessagePage } from '@miniqueue/sdk';
import type { Layout } from './table.js';

export const pagingFlags = {
  limit: Flags.integer({ summary: 'Messages per page (1-500).', min: 1, max: 500, default: 50 }),
  cursor: Flags.string({ summary: 'Continue from a previous page: its next_cursor.', exclusive: ['all'] }),
  all: Flags.boolean({ summary: 'Fetch every page, not just one.' }),
};

/** One page, or with `all` every page joined into one (whose next_cursor is then null). */
export async function fetchPages(
  fetchPage: (cursor: string | undefined) => Promise<MessagePage>,
  options: { cursor?: string; all: boolean },
): Promise<MessagePage> {
  if (!options.all) return fetchPage(options.cursor);
  const items: Message[] = [];
  let cursor: string | undefined;
  let first: MessagePage | undefined;
  do {
    const page = await fetchPage(cursor);
    first ??= page;
    items.push(...page.items);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return { items, next_cursor: null, total: first.total, total_exact: first.total_exact };
}

/**
 * Tells how to get the next page: on stdout under a table, where a person reads it; on stderr
 * with -o tsv, so the output stays rows a program can read whole.
 */
export function printNextPageHint(command: { log(text: string): void; logToStderr(text: string): void }, page: MessagePage, layout: Layout): void {
  const more = nextPageHint(page);
  if (!more) return;
  if (layout.format === 'tsv') command.logToStderr(more);
  else command.log(more);
}

function nextPageHint(page: MessagePage): string | null {
  if (!page.next_cursor) return null;
  const of = page.total === null ? '' : ` (${page.total.toLocaleString('en-US')}${page.total_exact ? '' : ' or more'} in all)`;
  return `More messages${of}: add --cursor ${page.next_cursor} (or --all).`;
}
