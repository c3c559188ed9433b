import type { Queue } from '@miniqueue/sdk';
import { formatTime } from '../../lib/format.js';
import { layoutOf, outputFlags } from '../../lib/outputFlags.js';
import { renderTable } from '../../lib/table.js';
import { BrokerCommand } from '../../base/brokerCommand.js';

export default class QueuesList extends BrokerCommand<typeof QueuesList> {
  static summary = 'List queues with their topic, ack timeout and retry limit.';

  static description = 'Message counts per queue are in `miniqueue status`.';

  static examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --json'];

  static flags = { ...outputFlags };

  async run(): Promise<Queue[]> {
    const queues = await (await this.broker()).queues.list();
    if (queues.length === 0) this.log('No queues.');
    else
      this.log(
        renderTable(
          queues,
          [
            { header: 'NAME', value: (q) => q.name },
            { header: 'TOPIC', value: (q) => q.topic_name },
            { header: 'ACK TIMEOUT', value: (q) => `${q.ack_timeout_seconds}s`, align: 'right' },
            { header: 'MAX RETRIES', value: (q) => q.max_retries, align: 'right' },
            { header: 'CREATED', value: (q) => formatTime(q.created_at), drop: 1 },
          ],
          layoutOf(this.flags),
        ),
      );
    return queues;
  }
}
