import type { Attention } from '../api/conditions';

/** The reasons a queue needs attention, each a short phrase with its numbers. */
export function AttentionBadges({ attention, className = '' }: { attention: Attention[]; className?: string }) {
  if (attention.length === 0) return null;
  return (
    <ul className={`flex flex-wrap gap-1 ${className}`} aria-label="Needs attention" data-attention={attention.map((entry) => entry.reason).join(' ')}>
      {attention.map((entry) => (
        <li
          key={entry.reason}
          className="inline-flex items-center gap-1 rounded bg-rose-50 px-1.5 py-0.5 text-xs font-medium text-rose-800 ring-1 ring-inset ring-rose-200"
        >
          <span aria-hidden>!</span>
          {entry.summary}
        </li>
      ))}
    </ul>
  );
}
