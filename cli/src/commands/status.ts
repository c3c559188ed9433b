import type { Overview, QueueStats } from '@miniqueue/sdk';
import { formatCount, formatSeconds } from '../lib/format.js';
import { inStatusColor } from '../lib/style.js';
import { layoutOf, outputFlags } from '../lib/outputFlags.js';
import { renderPairs, renderTable, type Column, type Layout } from '../lib/table.js';
import { BrokerCommand } from '../base/brokerCommand.js';

export interface StatusResult {
  overview: Overview;
  queues: QueueStats[];
}

/** A count in its status colour when there is something to see, plain when it is zero. */
function count(status: string, value: number): string {
  return value > 0 ? inStatusColor(status, formatCount(value)) : formatCount(value);
}

/** Counts with thousands separators in a table; bare digits in TSV, for programs. */
function countColumn(status: 'PENDING' | 'UNACKED' | 'ACKED' | 'DEAD', layout: Layout): Column<QueueStats> {
  const key = status.toLowerCase() as 'pending' | 'unacked' | 'acked' | 'dead';
  return {
    header: status,
    value: (q) => (layout.format === 'tsv' ? q[key] : formatCount(q[key])),
    align: 'right',
    style: (cell, q) => (q[key] > 0 ? inStatusColor(status, cell) : cell),
  };
}

export default class Status extends BrokerCommand<typeof Status> {
  static summary = 'Show message counts: the broker overview and one row per queue.';

  static examples = ['<%= config.bin %> <%= command.id %>', `<%= config.bin %> <%= command.id %> --json | jq '.overview.dead'`];

  static flags = { ...outputFlags };

  async run(): Promise<StatusResult> {
    const broker = await this.broker();
    const [overview, queues] = await Promise.all([broker.dashboard.overview(), broker.dashboard.queues()]);
    const layout = layoutOf(this.flags);
    // As TSV, only the per-queue rows: one table a program can read (the totals are their sums).
    if (layout.format === 'tsv') {
      this.log(renderTable(queues, this.queueColumns(layout), layout));
      return { overview, queues };
    }
    this.log(
      renderPairs([
        ['topics', formatCount(overview.topics)],
        ['queues', formatCount(overview.queues)],
        ['pending', count('PENDING', overview.pending)],
        ['unacked', count('UNACKED', overview.unacked)],
        ['acked', count('ACKED', overview.acked)],
        ['dead', count('DEAD', overview.dead)],
      ]),
    );
    if (queues.length > 0) {
      this.log('');
      this.log(renderTable(queues, this.queueColumns(layout), layout));
    }
    return { overview, queues };
  }

  private queueColumns(layout: Layout): Column<QueueStats>[] {
    return [
      { header: 'QUEUE', value: (q) => q.queue },
      { header: 'TOPIC', value: (q) => q.topic, drop: 1 },
      countColumn('PENDING', layout),
      countColumn('UNACKED', layout),
      countColumn('ACKED', layout),
      countColumn('DEAD', layout),
      { header: 'OLDEST PENDING', value: (q) => (q.pending > 0 ? formatSeconds(q.oldest_pending_age_seconds) : '-'), align: 'right' },
    ];
  }
}
