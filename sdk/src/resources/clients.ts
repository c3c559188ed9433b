import { ClientsApi, type Client, type ClientWithKey } from '../generated/index.js';
import type { Transport } from '../http/transport.js';
import type { CallOptions } from '../options.js';

export function clientsResource(t: Transport) {
  return {
    /** Registers a program; the result's `api_key` is shown only this once (admin). */
    create: (name: string, scopes: string[], options?: CallOptions): Promise<ClientWithKey> =>
      t.api(ClientsApi, options).createClient({ createClientRequest: { name, scopes } }),
    /** Active clients with their key prefixes, never their keys (admin). */
    list: (options?: CallOptions): Promise<Client[]> => t.api(ClientsApi, options).listClients(),
    /**
     * Replaces the client's scopes; its key stays (admin). What the new scopes no longer allow stops
     * at once, its WebSockets included. ValidationError (`unknown_scope`) for a scope that does not exist.
     */
    update: (name: string, scopes: string[], options?: CallOptions): Promise<Client> =>
      t.api(ClientsApi, options).updateClient({ name, updateClientRequest: { scopes } }),
    /** Issues a new key; the old one stops working at once (admin). */
    rotate: (name: string, options?: CallOptions): Promise<ClientWithKey> => t.api(ClientsApi, options).rotateClient({ name }),
    /** Revokes the client: its key and open WebSockets die at once (admin). */
    delete: (name: string, options?: CallOptions): Promise<void> => t.api(ClientsApi, options).deleteClient({ name }),
  };
}

export type ClientsResource = ReturnType<typeof clientsResource>;
