import { Flags } from '@oclif/core';
import { arg } from '../../lib/args.js';
import type { MessagePage, MessageStatus } from '@miniqueue/sdk';
import { renderMessages } from '../../lib/messageTable.js';
import { fetchPages, nextPageHint, pagingFlags } from '../../lib/paging.js';
import { BrokerCommand } from '../../base/brokerCommand.js';

const STATUSES = ['PENDING', 'UNACKED', 'ACKED', 'DEAD'] as const satisfies readonly MessageStatus[];

export default class MessagesList extends BrokerCommand<typeof MessagesList> {
  static summary = 'List the messages of a queue, oldest first, a page at a time.';

  static description = 'Nothing is claimed or changed: this only looks. Follow next_cursor (--cursor) for the next page, or take them all with --all.';

  static examples = [
    '<%= config.bin %> <%= command.id %> email-queue',
    '<%= config.bin %> <%= command.id %> email-queue --status UNACKED --limit 10',
    `<%= config.bin %> <%= command.id %> email-queue --all --json | jq -r '.items[].payload'`,
  ];

  static args = {
    queue: arg('Queue name.'),
  };

  static flags = {
    status: Flags.option({ options: STATUSES, summary: 'Only messages in this status.' })(),
    ...pagingFlags,
  };

  async run(): Promise<MessagePage> {
    const broker = await this.broker();
    const { status, limit, cursor, all } = this.flags;
    const page = await fetchPages((next) => broker.queues.messages(this.args.queue, { status, limit, cursor: next }), {
      cursor,
      all,
    });
    this.log(page.items.length === 0 ? 'No messages.' : renderMessages(page.items));
    const more = nextPageHint(page);
    if (more) this.log(more);
    return page;
  }
}
