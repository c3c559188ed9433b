import { useEffect, useRef } from 'react';
import type { ClientWithKey } from '@miniqueue/sdk';
import { Button } from '../../../lib/ui/Button';
import { CopyButton } from '../../../lib/ui/CopyButton';

export function NewKey({ client, reason, onDone }: { client: ClientWithKey; reason: 'registered' | 'rotated'; onDone: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // Focus moves here so keyboard and screen-reader users learn at once that there is a key to copy.
  useEffect(() => heading.current?.focus(), [client.api_key]);
  return (
    <section aria-labelledby="new-key-title" className="mb-6 rounded-lg bg-emerald-50 p-4 ring-1 ring-emerald-200" data-testid="new-key">
      <h2 id="new-key-title" ref={heading} tabIndex={-1} className="text-sm font-semibold text-emerald-900 outline-none">
        {reason === 'registered' ? `Registered ${client.name}` : `New key for ${client.name}`}: copy the key now
      </h2>
      <p className="mt-1 text-sm text-emerald-800">
        It is shown only this once. The broker keeps only a hash, so it cannot be shown again; if it is lost, rotate it.
      </p>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <code
          id="new-key-value"
          className="min-w-0 flex-1 break-all rounded bg-white px-3 py-2 font-mono text-sm text-slate-900 ring-1 ring-emerald-200"
          data-testid="api-key"
        >
          {client.api_key}
        </code>
        <CopyButton text={client.api_key} targetId="new-key-value" />
      </div>
      <p className="mt-2 text-xs text-emerald-800">Scopes: {client.scopes.join(', ')}</p>
      <Button variant="secondary" size="sm" className="mt-3" onClick={onDone}>
        I have saved the key
      </Button>
    </section>
  );
}
