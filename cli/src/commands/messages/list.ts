import { Flags } from '@oclif/core';
import { arg } from '../../lib/args.js';
import type { MessagePage, MessageStatus } from '@miniqueue/sdk';
import { renderMessages } from '../../lib/messageTable.js';
import { layoutOf, outputFlags } from '../../lib/outputFlags.js';
import { fetchPages, pagingFlags, printNextPageHint } from '../../lib/paging.js';
import { BrokerCommand } from '../../base/brokerCommand.js';

const STATUSES = ['PENDING', 'UNACKED', 'ACKED', 'DEAD'] as const satisfies readonly MessageStatus[];

/** NAME=VALUE, split at the first "=" (as the broker does); null when there is none. */
function headerFilter(text: string): { name: string; value: string } | null {
  const split = text.indexOf('=');
  return split < 0 ? null : { name: text.slice(0, split), value: text.slice(split + 1) };
}

export default class MessagesList extends BrokerCommand<typeof MessagesList> {
  static summary = 'List the messages of a queue, oldest first (or newest first), a page at a time.';

  static description = `Nothing is claimed or changed: this only looks. Follow next_cursor (--cursor) for the next page, or take them all with --all. --order desc starts from the newest. --header name=value keeps the messages with that header value; each page then searches a stretch of the queue (5,000 messages), so a page may be short or empty while there are more to search.`;

  static examples = [
    '<%= config.bin %> <%= command.id %> email-queue',
    '<%= config.bin %> <%= command.id %> email-queue --status UNACKED --limit 10',
    '<%= config.bin %> <%= command.id %> email-queue --order desc --limit 5',
    '<%= config.bin %> <%= command.id %> email-queue --header customer=42 --all',
    `<%= config.bin %> <%= command.id %> email-queue --all --json | jq -r '.items[].payload'`,
  ];

  static args = {
    queue: arg('Queue name.'),
  };

  static flags = {
    status: Flags.option({ options: STATUSES, summary: 'Only messages in this status.' })(),
    order: Flags.option({ options: ['asc', 'desc'] as const, summary: 'asc: oldest first (the order of delivery); desc: newest first.', default: 'asc' })(),
    header: Flags.string({ summary: 'Only messages whose header NAME is exactly VALUE, as NAME=VALUE.' }),
    ...pagingFlags,
    ...outputFlags,
  };

  async run(): Promise<MessagePage> {
    const broker = await this.broker();
    const { status, order, limit, cursor, all } = this.flags;
    const header = this.flags.header === undefined ? undefined : headerFilter(this.flags.header);
    if (header === null) this.error(`--header must be NAME=VALUE, got ${this.flags.header}`, { exit: 2 });
    const page = await fetchPages((next) => broker.queues.messages(this.args.queue, { status, order, header, limit, cursor: next }), {
      cursor,
      all,
    });
    const layout = layoutOf(this.flags);
    // As TSV, an empty page is the header alone: a sentence would read as a row.
    this.log(page.items.length === 0 && layout.format === 'table' ? 'No messages.' : renderMessages(page.items, layout));
    printNextPageHint(this, page, layout);
    return page;
  }
}
