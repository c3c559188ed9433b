import { createContext, useContext } from 'react';
import type { MiniQueue } from '@miniqueue/sdk';
import type { Session } from '../features/auth/api/session';

export interface SessionContextValue {
  session: Session;
  /** The SDK client, signed in as `session`. */
  mq: MiniQueue;
  admin: boolean;
  signOut: () => void;
}

export const SessionContext = createContext<SessionContextValue | null>(null);

export function useSession(): SessionContextValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside a signed-in page');
  return value;
}
