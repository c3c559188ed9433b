import { MiniQueue, type Me } from '@miniqueue/sdk';
import { anonymousClient, brokerUrl } from '../../../lib/client';

/** Who is signed in, with what: a session token (`mqs_…`, GitHub) or a client's API key (`mq_…`). */
export interface Session {
  token: string;
  name: string;
  kind: Me['kind'];
  scopes: string[];
}

export const isAdmin = (session: Session): boolean => session.scopes.includes('admin');
export const canView = (session: Session): boolean => isAdmin(session) || session.scopes.includes('view');

/** The credential lives as long as the tab: gone when it closes, never shared with other tabs. */
const STORAGE_KEY = 'miniqueue.credential';

export const storedToken = (): string | null => window.sessionStorage.getItem(STORAGE_KEY);
export const storeToken = (token: string): void => window.sessionStorage.setItem(STORAGE_KEY, token);
export const forgetToken = (): void => window.sessionStorage.removeItem(STORAGE_KEY);

export class CannotViewError extends Error {}

/** Asks the broker who a credential belongs to; refuses credentials that cannot read the dashboard. */
export async function sessionFor(token: string): Promise<Session> {
  const me = await new MiniQueue({ url: brokerUrl(), apiKey: token, retry: { attempts: 2 } }).auth.me();
  const session: Session = { token, name: me.name, kind: me.kind, scopes: me.scopes };
  if (!canView(session)) {
    const scopes = session.scopes.length ? session.scopes.join(', ') : 'none';
    throw new CannotViewError(`“${me.name}” has the scopes ${scopes}. The dashboard needs view (to look) or admin (to manage).`);
  }
  return session;
}

/** The login code GitHub sign-in left in the address (a fragment, so no server ever logged it). */
export function takeLoginCode(): string | null {
  const fragment = new URLSearchParams(window.location.hash.replace(/^#/, ''));
  const code = fragment.get('login_code');
  if (code === null) return null;
  // Out of the address bar and history at once: the code is single-use, but need not be seen.
  window.history.replaceState(null, '', window.location.pathname + window.location.search);
  return code;
}

export async function exchangeLoginCode(code: string): Promise<Session> {
  const created = await anonymousClient().auth.exchange(code);
  return sessionFor(created.token);
}

/** A session ends on the server too; an API key cannot be signed out, only forgotten here. */
export async function endSession(session: Session): Promise<void> {
  forgetToken();
  if (session.kind !== 'session') return;
  await new MiniQueue({ url: brokerUrl(), apiKey: session.token, retry: { attempts: 1 } }).auth.logout().catch(() => undefined);
}
