import { useState } from 'react';
import type { Client, ClientWithKey } from '@miniqueue/sdk';
import { useSession } from '../../../app/session';
import { formatDate, formatTime } from '../../../lib/format';
import { Button } from '../../../lib/ui/Button';
import { PageHeader } from '../../../lib/ui/Card';
import { useConfirm } from '../../../lib/ui/ConfirmDialog';
import { Empty, ErrorNotice, Loading, Notice } from '../../../lib/ui/States';
import { useResource } from '../../../lib/useResource';
import { loadClients, revokeClient, rotateKey } from '../api/clients';
import { NewKey } from './NewKey';
import { RegisterClientForm } from './RegisterClientForm';

export function ClientsPage() {
  const { mq, session } = useSession();
  const clients = useResource((signal) => loadClients(mq, signal), [mq]);
  /** The one moment a key exists in the browser: shown until dismissed, never stored. */
  const [fresh, setFresh] = useState<{ client: ClientWithKey; reason: 'registered' | 'rotated' } | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const confirm = useConfirm();

  const askRotate = (client: Client) =>
    confirm.ask({
      title: `Rotate the key of ${client.name}?`,
      body: 'A new key is issued and the current one stops working immediately: every program using it must get the new one.',
      confirmLabel: 'Rotate key',
      action: async () => {
        setFresh({ client: await rotateKey(mq, client.name), reason: 'rotated' });
        setDone(null);
        clients.reload();
      },
    });

  const askRevoke = (client: Client) =>
    confirm.ask({
      title: `Revoke ${client.name}?`,
      body:
        client.name === session.name
          ? 'This is the key you are signed in with: you will be signed out at once.'
          : 'Its key stops working immediately and its open connections are closed.',
      confirmLabel: 'Revoke client',
      action: async () => {
        await revokeClient(mq, client.name);
        setDone(`Revoked ${client.name}.`);
        clients.reload();
      },
    });

  return (
    <>
      <PageHeader title="Clients" description="The programs that publish and consume. Each has its own API key and only the scopes it needs." />
      {fresh && <NewKey client={fresh.client} reason={fresh.reason} onDone={() => setFresh(null)} />}
      {done && (
        <div className="mb-4">
          <Notice>{done}</Notice>
        </div>
      )}
      <div className="grid gap-6 2xl:grid-cols-3">
        <div className="min-w-0 2xl:col-span-2">
          {clients.loading && <Loading />}
          {clients.error !== undefined && <ErrorNotice error={clients.error} onRetry={clients.reload} />}
          {clients.data?.length === 0 && <Empty title="No clients yet">Register the first program with the form.</Empty>}
          {clients.data && clients.data.length > 0 && <ClientTable clients={clients.data} onRotate={askRotate} onRevoke={askRevoke} />}
        </div>
        <RegisterClientForm
          onRegistered={(client) => {
            setFresh({ client, reason: 'registered' });
            setDone(null);
            clients.reload();
          }}
        />
      </div>
      {confirm.dialog}
    </>
  );
}

function ClientTable({ clients, onRotate, onRevoke }: { clients: Client[]; onRotate: (client: Client) => void; onRevoke: (client: Client) => void }) {
  return (
    <div className="overflow-x-auto rounded-lg bg-white shadow-xs ring-1 ring-slate-200">
      <table className="min-w-full text-sm" data-testid="client-table">
        <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="px-4 py-2.5">
              Client
            </th>
            <th scope="col" className="px-4 py-2.5">
              Scopes
            </th>
            <th scope="col" className="hidden px-4 py-2.5 md:table-cell">
              Key
            </th>
            <th scope="col" className="hidden px-4 py-2.5 text-right sm:table-cell">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {clients.map((client) => (
            <tr key={client.name} data-client={client.name}>
              <th scope="row" className="whitespace-nowrap px-4 py-2.5 text-left align-top font-medium text-slate-900">
                {client.name}
                <span className="block text-xs font-normal text-slate-500">since {formatDate(client.created_at)}</span>
                {/* On a phone the actions column would be off-screen: they sit under the name instead. */}
                <span className="-ml-2.5 mt-1 block sm:hidden">
                  <ClientActions client={client} onRotate={onRotate} onRevoke={onRevoke} />
                </span>
              </th>
              <td className="px-4 py-2.5 align-top">
                <span className="flex flex-wrap gap-1">
                  {client.scopes.map((scope) => (
                    <code
                      key={scope}
                      className={`rounded px-1.5 py-0.5 text-xs ${scope === 'admin' ? 'bg-indigo-50 text-indigo-700' : 'bg-slate-100 text-slate-700'}`}
                    >
                      {scope}
                    </code>
                  ))}
                </span>
              </td>
              <td className="hidden whitespace-nowrap px-4 py-2.5 align-top text-xs text-slate-600 md:table-cell">
                <span className="font-mono">{client.key_prefix}…</span>
                <span className="block text-slate-500">{client.last_used_at ? `used ${formatTime(client.last_used_at)}` : 'never used'}</span>
              </td>
              <td className="hidden px-4 py-2.5 text-right align-top sm:table-cell">
                <ClientActions client={client} onRotate={onRotate} onRevoke={onRevoke} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function ClientActions({ client, onRotate, onRevoke }: { client: Client; onRotate: (client: Client) => void; onRevoke: (client: Client) => void }) {
  return (
    <span className="inline-flex gap-1">
      <Button variant="ghost" size="sm" onClick={() => onRotate(client)} aria-label={`Rotate the key of ${client.name}`}>
        Rotate
      </Button>
      <Button variant="dangerGhost" size="sm" onClick={() => onRevoke(client)} aria-label={`Revoke ${client.name}`}>
        Revoke
      </Button>
    </span>
  );
}
