/** Whoever made a request, whatever credential they used. */
export interface Principal {
  name: string;
  kind: 'client' | 'session';
  scopes: string[];
  /** Who owns idempotency keys: a client id, or a person. */
  owner: string;
  /** The client row or session row this credential came from. */
  credentialId: string;
}
