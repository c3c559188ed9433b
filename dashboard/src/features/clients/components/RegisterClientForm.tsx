import { useState, type FormEvent } from 'react';
import type { ClientWithKey } from '@miniqueue/sdk';
import { useSession } from '../../../app/session';
import { describeError } from '../../../lib/errors';
import { Button } from '../../../lib/ui/Button';
import { Card } from '../../../lib/ui/Card';
import { TextField } from '../../../lib/ui/Field';
import { useResource } from '../../../lib/useResource';
import { nameProblem } from '../../topics/api/topology';
import { loadScopeTargets, registerClient } from '../api/clients';
import { emptySelection, scopesOf, type ScopeSelection } from '../api/scopes';
import { ScopePicker } from './ScopePicker';

export function RegisterClientForm({ onRegistered }: { onRegistered: (client: ClientWithKey) => void }) {
  const { mq } = useSession();
  const targets = useResource((signal) => loadScopeTargets(mq, signal), [mq]);
  const [name, setName] = useState('');
  const [selection, setSelection] = useState<ScopeSelection>(emptySelection);
  const [problems, setProblems] = useState<{ name?: string | null; scopes?: string; form?: string }>({});
  const [busy, setBusy] = useState(false);
  const scopes = scopesOf(selection);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = { name: nameProblem(name.trim()), scopes: scopes.length === 0 ? 'Choose at least one scope.' : undefined };
    setProblems(found);
    if (found.name || found.scopes) return;
    setBusy(true);
    try {
      const client = await registerClient(mq, name.trim(), scopes);
      setName('');
      setSelection(emptySelection());
      onRegistered(client);
    } catch (failure) {
      setProblems({ form: describeError(failure) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title="Register a client">
      <form onSubmit={submit} className="space-y-4" noValidate aria-label="Register a client">
        <TextField label="Client name" name="client-name" value={name} onChange={(event) => setName(event.target.value)} placeholder="email-service" error={problems.name} hint="One client per program, so each can be revoked alone." />
        {targets.error !== undefined && (
          <p role="alert" className="text-xs text-rose-700">
            Could not load the topics and queues to choose from ({describeError(targets.error)}) Type scopes under “Other scope” instead.
          </p>
        )}
        <ScopePicker selection={selection} onChange={setSelection} topics={targets.data?.topics ?? []} queues={targets.data?.queues ?? []} error={problems.scopes} />
        <p className="text-xs text-slate-600" aria-live="polite">
          Grants: {scopes.length ? scopes.map((scope) => <code key={scope} className="mr-1 rounded bg-slate-100 px-1 py-0.5">{scope}</code>) : 'nothing yet'}
        </p>
        {problems.form && (
          <p role="alert" className="text-sm text-rose-700">
            {problems.form}
          </p>
        )}
        <Button type="submit" busy={busy}>
          Register client
        </Button>
      </form>
    </Card>
  );
}
