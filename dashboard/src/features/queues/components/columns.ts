import type { StatusName } from '../../../lib/ui/Status';

/** A queue's counts by status, in the order a message lives through them. */
export const COUNT_COLUMNS: { key: 'pending' | 'unacked' | 'acked' | 'dead'; label: string; status: StatusName }[] = [
  { key: 'pending', label: 'Pending', status: 'PENDING' },
  { key: 'unacked', label: 'Unacked', status: 'UNACKED' },
  { key: 'acked', label: 'Acked', status: 'ACKED' },
  { key: 'dead', label: 'Dead', status: 'DEAD' },
];
