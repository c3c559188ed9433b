import { useMonitor } from './MonitorProvider';

const LOOK = {
  open: { dot: 'bg-emerald-500', label: 'Live' },
  connecting: { dot: 'bg-amber-400 animate-pulse', label: 'Connecting…' },
  reconnecting: { dot: 'bg-amber-400 animate-pulse', label: 'Reconnecting…' },
  stopped: { dot: 'bg-slate-400', label: 'Offline' },
} as const;

export function ConnectionIndicator() {
  const { status, detail } = useMonitor();
  const look = LOOK[status];
  return (
    <span
      className="inline-flex items-center gap-1.5 rounded-full bg-white px-2.5 py-1 text-xs font-medium text-slate-700 ring-1 ring-slate-200"
      title={status === 'reconnecting' && detail ? `Live feed: ${detail}` : 'Live feed connection'}
      data-testid="connection"
      data-status={status}
    >
      <span className={`size-2 rounded-full ${look.dot}`} aria-hidden />
      <span>
        <span className="sr-only">Live feed: </span>
        {look.label}
      </span>
    </span>
  );
}
