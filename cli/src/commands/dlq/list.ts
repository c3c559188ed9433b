import { Flags } from '@oclif/core';
import type { MessagePage } from '@miniqueue/sdk';
import { reasonFlag } from '../../lib/deadLetterFilter.js';
import { renderDeadLetters } from '../../lib/messageTable.js';
import { layoutOf, outputFlags } from '../../lib/outputFlags.js';
import { fetchPages, pagingFlags, printNextPageHint } from '../../lib/paging.js';
import { BrokerCommand } from '../../base/brokerCommand.js';

export default class DlqList extends BrokerCommand<typeof DlqList> {
  static summary = 'List dead messages, of every queue or of one.';

  static description =
    "A message goes dead when a consumer rejects it for good, when its retries run out, when a full bounded queue pushes it out, or when its time to live runs out. Each shows when it died and why (the consumer's nack reason, or how its retries ran out). Bring it back with dlq:replay, or delete it with dlq:delete (either also by queue and reason).";

  static examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --queue email-queue --all --json',
    '<%= config.bin %> <%= command.id %> --reason RETRIES_EXHAUSTED',
  ];

  static flags = {
    queue: Flags.string({ char: 'q', summary: 'Only the dead messages of this queue.' }),
    reason: reasonFlag,
    ...pagingFlags,
    ...outputFlags,
  };

  async run(): Promise<MessagePage> {
    const broker = await this.broker();
    const { queue, reason, limit, cursor, all } = this.flags;
    const page = await fetchPages((next) => broker.dlq.list({ queue, reason, limit, cursor: next }), { cursor, all });
    const layout = layoutOf(this.flags);
    // As TSV, an empty page is the header alone: a sentence would read as a row.
    this.log(page.items.length === 0 && layout.format === 'table' ? 'No dead messages.' : renderDeadLetters(page.items, layout));
    printNextPageHint(this, page, layout);
    return page;
  }
}
