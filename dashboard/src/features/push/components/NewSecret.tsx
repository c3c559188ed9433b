import { useEffect, useRef } from 'react';
import { Button } from '../../../lib/ui/Button';
import { CopyButton } from '../../../lib/ui/CopyButton';

/** A push endpoint's signing secret, shown the one time the broker returns it. */
export function NewSecret({ queue, secret, onDone }: { queue: string; secret: string; onDone: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [secret]);
  return (
    <section aria-labelledby="push-secret-title" className="mt-3 rounded-lg bg-emerald-50 p-4 ring-1 ring-emerald-200" data-testid="push-secret">
      <h4 id="push-secret-title" ref={heading} tabIndex={-1} className="text-sm font-semibold text-emerald-900 outline-none">
        Signing secret for {queue}: copy it now
      </h4>
      <p className="mt-1 text-sm text-emerald-800">
        It is shown only this once. Give it to the receiver, which checks every push with it; if it is lost, rotate it.
      </p>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <code id="push-secret-value" className="min-w-0 flex-1 break-all rounded bg-white px-3 py-2 font-mono text-sm text-slate-900 ring-1 ring-emerald-200">
          {secret}
        </code>
        <CopyButton text={secret} targetId="push-secret-value" />
      </div>
      <Button variant="secondary" size="sm" className="mt-3" onClick={onDone}>
        I have saved the secret
      </Button>
    </section>
  );
}
