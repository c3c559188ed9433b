import { Flags } from '@oclif/core';
import type { MessagePage } from '@miniqueue/sdk';
import { renderDeadLetters } from '../../lib/messageTable.js';
import { fetchPages, nextPageHint, pagingFlags } from '../../lib/paging.js';
import { BrokerCommand } from '../../base/brokerCommand.js';

export default class DlqList extends BrokerCommand<typeof DlqList> {
  static summary = 'List dead messages, of every queue or of one.';

  static description = 'A message goes dead when a consumer rejects it for good, or when its retries run out. Bring it back with dlq:replay.';

  static examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --queue email-queue --all --json'];

  static flags = {
    queue: Flags.string({ char: 'q', summary: 'Only the dead messages of this queue.' }),
    ...pagingFlags,
  };

  async run(): Promise<MessagePage> {
    const broker = await this.broker();
    const { queue, limit, cursor, all } = this.flags;
    const page = await fetchPages((next) => broker.dlq.list({ queue, limit, cursor: next }), { cursor, all });
    this.log(page.items.length === 0 ? 'No dead messages.' : renderDeadLetters(page.items));
    const more = nextPageHint(page);
    if (more) this.log(more);
    return page;
  }
}
