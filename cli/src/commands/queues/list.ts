import type { Queue } from '@miniqueue/sdk';
import { formatTime } from '../../lib/format.js';
import { FEATURES_LEGEND, queueFeatures } from '../../lib/queueFeatures.js';
import { layoutOf, outputFlags } from '../../lib/outputFlags.js';
import { renderTable } from '../../lib/table.js';
import { BrokerCommand } from '../../base/brokerCommand.js';

/** A queue as the broker describes it, with the short names of the policies it has. */
export type ListedQueue = Queue & { features: string[] };

export default class QueuesList extends BrokerCommand<typeof QueuesList> {
  static summary = 'List queues with their topic, ack timeout, retry limit and policies.';

  static description = `Message counts per queue are in \`miniqueue status\`. ${FEATURES_LEGEND} --json gives each queue whole, with its features as a list.`;

  static examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --json'];

  static flags = { ...outputFlags };

  async run(): Promise<ListedQueue[]> {
    const queues = (await (await this.broker()).queues.list()).map((queue) => ({ ...queue, features: queueFeatures(queue) }));
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
            { header: 'FEATURES', value: (q) => (q.features.length > 0 ? q.features.join(' ') : '-') },
            { header: 'CREATED', value: (q) => formatTime(q.created_at), drop: 1 },
          ],
          layoutOf(this.flags),
        ),
      );
    return queues;
  }
}
