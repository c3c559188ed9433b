import { useState } from 'react';
import type { ClientWithKey } from '@miniqueue/sdk';
import { useSession } from '../../../app/session';
import { describeError } from '../../../lib/errors';
import { Button } from '../../../lib/ui/Button';
import { Card } from '../../../lib/ui/Card';
import { TextField } from '../../../lib/ui/Field';
import { FormFailure } from '../../../lib/ui/FormFailure';
import { useResource } from '../../../lib/useResource';
import { useSubmit } from '../../../lib/useSubmit';
import { nameProblem } from '../../topics/api/topology';
import { loadScopeTargets, registerClient } from '../api/clients';
import { emptySelection, scopesOf, type ScopeSelection } from '../api/scopes';
import { ScopePicker } from './ScopePicker';

export function RegisterClientForm({ onRegistered }: { onRegistered: (client: ClientWithKey) => void }) {
  const { mq } = useSession();
  const targets = useResource((signal) => loadScopeTargets(mq, signal), [mq]);
  const [name, setName] = useState('');
  const [selection, setSelection] = useState<ScopeSelection>(emptySelection);
  const [problems, setProblems] = useState<{ name?: string | null; scopes?: string }>({});
  const scopes = scopesOf(selection);
  const submission = useSubmit(() => registerClient(mq, name.trim(), scopes), {
    validate: () => {
      const found = { name: nameProblem(name.trim()), scopes: scopes.length === 0 ? 'Choose at least one scope.' : undefined };
      setProblems(found);
      return !found.name && !found.scopes;
    },
    onSuccess: (client) => {
      setName('');
      setSelection(emptySelection());
      onRegistered(client);
    },
  });

  return (
    <Card title="Register a client">
      <form onSubmit={submission.onSubmit} className="space-y-4" noValidate aria-label="Register a client">
        <TextField
          label="Client name"
          name="client-name"
          value={name}
          onChange={(event) => setName(event.target.value)}
          placeholder="email-service"
          error={problems.name}
          hint="One client per program, so each can be revoked alone."
        />
        {targets.error !== undefined && (
          <p role="alert" className="text-xs text-rose-700">
            Could not load the topics and queues to choose from ({describeError(targets.error)}) Type scopes under “Other scope” instead.
          </p>
        )}
        <ScopePicker
          selection={selection}
          onChange={setSelection}
          topics={targets.data?.topics ?? []}
          queues={targets.data?.queues ?? []}
          error={problems.scopes}
        />
        <p className="text-xs text-slate-600" aria-live="polite">
          Grants:{' '}
          {scopes.length
            ? scopes.map((scope) => (
                <code key={scope} className="mr-1 rounded bg-slate-100 px-1 py-0.5">
                  {scope}
                </code>
              ))
            : 'nothing yet'}
        </p>
        <FormFailure failure={submission.failure} />
        <Button type="submit" busy={submission.busy}>
          Register client
        </Button>
      </form>
    </Card>
  );
}
