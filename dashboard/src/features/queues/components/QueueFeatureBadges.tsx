import type { Queue } from '@miniqueue/sdk';
import { queueFeatures } from '../api/features';

/** A queue's policies as short badges (TTL, DLX, Lim…), each saying in full what it means. */
export function QueueFeatureBadges({ queue }: { queue: Queue }) {
  const features = queueFeatures(queue);
  if (features.length === 0) return null;
  return (
    <span className="flex flex-wrap gap-1" data-testid="queue-features" aria-label={`Policies of ${queue.name}`}>
      {features.map((feature) => (
        <abbr
          key={feature.label}
          title={feature.meaning}
          className="rounded bg-slate-100 px-1.5 py-0.5 text-xs font-semibold text-slate-700 no-underline ring-1 ring-inset ring-slate-200"
          data-feature={feature.label}
        >
          {feature.label}
        </abbr>
      ))}
    </span>
  );
}
