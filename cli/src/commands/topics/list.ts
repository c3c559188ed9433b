import type { Topic } from '@miniqueue/sdk';
import { formatTime } from '../../lib/format.js';
import { layoutOf, outputFlags } from '../../lib/outputFlags.js';
import { renderTable } from '../../lib/table.js';
import { BrokerCommand } from '../../base/brokerCommand.js';

export default class TopicsList extends BrokerCommand<typeof TopicsList> {
  static summary = 'List topics with the queues bound to them.';

  static examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --json'];

  static flags = { ...outputFlags };

  async run(): Promise<Topic[]> {
    const topics = await (await this.broker()).topics.list();
    if (topics.length === 0) this.log('No topics.');
    else
      this.log(
        renderTable(
          topics,
          [
            { header: 'NAME', value: (t) => t.name },
            { header: 'CREATED', value: (t) => formatTime(t.created_at), drop: 1 },
            { header: 'QUEUES', value: (t) => t.queues.join(', ') || '-', shrink: true },
          ],
          layoutOf(this.flags),
        ),
      );
    return topics;
  }
}
