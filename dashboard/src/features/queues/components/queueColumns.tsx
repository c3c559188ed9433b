import type { ReactNode } from 'react';
import type { QueueStats } from '@miniqueue/sdk';
import { formatRate } from '../../../lib/chart';
import { formatAge, formatCount } from '../../../lib/format';
import { Link } from '../../../lib/router';
import { Sparkline } from '../../../lib/ui/Sparkline';
import { STATUS_COLOURS } from '../../../lib/ui/Status';
import { THRESHOLDS, attentionOf } from '../../attention/api/conditions';
import { AttentionBadges } from '../../attention/components/AttentionBadges';
import { COUNT_COLUMNS } from './columns';

export type QueueSortKey = 'queue' | 'pending' | 'unacked' | 'dead' | 'enqueued' | 'delivered' | 'acked' | 'consumers' | 'oldest';

export interface QueueColumn {
  key: QueueSortKey | 'depth';
  label: string;
  /** Where there is room for more words (the cards on narrow screens). */
  longLabel?: string;
  /** What the header means, for a tooltip and screen readers. */
  meaning?: string;
  /** The number (or name) sorted by; columns without one cannot be sorted. */
  value?: (row: QueueStats) => number | string;
  render: (row: QueueStats) => ReactNode;
  align?: 'left' | 'right';
}

export const queueHref = (queue: string) => `/queues/${encodeURIComponent(queue)}`;

const consumers = (row: QueueStats) => row.websocket_consumers + row.pollers;
const muted = (value: number) => (value > 0 ? 'text-slate-800' : 'text-slate-600');

/**
 * The one window of this page's rates: the attention flags' (THRESHOLDS.backlog, as the alert
 * rules), so that a flag such as "32/s in, 11/s acked" and the columns beside it say the same.
 */
export const RATE_WINDOW_MINUTES = THRESHOLDS.backlog.windowMinutes;
type RateField = 'enqueued_last_5_minutes' | 'delivered_last_5_minutes' | 'acked_last_5_minutes';
const perSecond = (row: QueueStats, field: RateField) => row[field] / (RATE_WINDOW_MINUTES * 60);

const rateColumn = (key: 'enqueued' | 'delivered' | 'acked', label: string, meaning: string, field: RateField): QueueColumn => ({
  key,
  label,
  meaning: `${meaning}, over the last ${RATE_WINDOW_MINUTES} minutes`,
  value: (row) => perSecond(row, field),
  render: (row) => <span className={`tabular-nums ${muted(perSecond(row, field))}`}>{formatRate(perSecond(row, field))}</span>,
});

/** The queue list's columns, in order: who it is, how much waits, how fast it moves, who serves it. */
export const QUEUE_COLUMNS: QueueColumn[] = [
  {
    key: 'queue',
    label: 'Queue',
    value: (row) => row.queue,
    align: 'left',
    render: (row) => (
      <span className="block min-w-0">
        <Link href={queueHref(row.queue)} className="break-all font-medium text-indigo-700 hover:underline">
          {row.queue}
        </Link>
        <span className="block truncate text-xs text-slate-500">topic {row.topic}</span>
        <AttentionBadges attention={attentionOf(row)} className="mt-1" />
      </span>
    ),
  },
  ...COUNT_COLUMNS.filter((column) => column.key !== 'acked').map((column): QueueColumn => ({
    key: column.key,
    label: column.label,
    value: (row) => row[column.key],
    render: (row) => (
      <span data-column={column.key} className={`font-semibold tabular-nums ${row[column.key] > 0 ? STATUS_COLOURS[column.status].text : 'text-slate-600'}`}>
        {formatCount(row[column.key])}
      </span>
    ),
  })),
  rateColumn('enqueued', 'In/s', 'Copies stored in this queue per second', 'enqueued_last_5_minutes'),
  rateColumn('delivered', 'Delivered/s', 'Messages claimed by consumers per second', 'delivered_last_5_minutes'),
  rateColumn('acked', 'Acked/s', 'Messages acknowledged per second', 'acked_last_5_minutes'),
  {
    key: 'consumers',
    label: 'Consumers',
    meaning: 'Open consumer WebSockets, plus consumers that polled in the last minute',
    value: consumers,
    render: (row) => (
      <span className={`tabular-nums ${muted(consumers(row))}`} title={`${row.websocket_consumers} WebSocket, ${row.pollers} polling`} data-column="consumers">
        {consumers(row)}
      </span>
    ),
  },
  {
    key: 'oldest',
    label: 'Oldest',
    longLabel: 'Oldest pending',
    meaning: 'How long the oldest pending message has waited',
    value: (row) => (row.pending > 0 ? row.oldest_pending_age_seconds : 0),
    render: (row) => <span className="tabular-nums text-slate-600">{row.pending > 0 ? formatAge(row.oldest_pending_age_seconds) : '—'}</span>,
  },
  {
    key: 'depth',
    label: 'Depth, 1 h',
    meaning: 'Pending messages at the end of each minute of the last hour',
    render: (row) => <Sparkline values={row.depth_history} label={`Pending messages of ${row.queue} over the last hour`} />,
  },
];
