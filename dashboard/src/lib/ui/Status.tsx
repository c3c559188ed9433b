/** One colour per message status, the same on every page: amber waits, sky is held, green is done, rose is dead. */
export const STATUS_COLOURS = {
  PENDING: { badge: 'bg-amber-50 text-amber-800 ring-amber-300', text: 'text-amber-700', bar: 'bg-amber-400' },
  UNACKED: { badge: 'bg-sky-50 text-sky-800 ring-sky-300', text: 'text-sky-700', bar: 'bg-sky-500' },
  ACKED: { badge: 'bg-emerald-50 text-emerald-800 ring-emerald-300', text: 'text-emerald-700', bar: 'bg-emerald-500' },
  DEAD: { badge: 'bg-rose-50 text-rose-800 ring-rose-300', text: 'text-rose-700', bar: 'bg-rose-500' },
} as const;

export type StatusName = keyof typeof STATUS_COLOURS;

export function StatusBadge({ status }: { status: string }) {
  const colours = STATUS_COLOURS[status as StatusName]?.badge ?? 'bg-slate-50 text-slate-700 ring-slate-300';
  return <span className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${colours}`}>{status}</span>;
}
