import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { UnauthorizedError } from '@miniqueue/sdk';
import { signedInClient } from '../lib/client';
import { describeError } from '../lib/errors';
import { Loading } from '../lib/ui/States';
import {
  endSession,
  exchangeLoginCode,
  forgetToken,
  isAdmin,
  sessionFor,
  storeToken,
  storedToken,
  takeLoginCode,
  type Session,
} from '../features/auth/api/session';
import { SignInPage } from '../features/auth/components/SignInPage';
import { SessionContext, type SessionContextValue } from './session';
import { Shell } from './Shell';

type AuthState = { phase: 'starting' } | { phase: 'signedOut'; notice?: string } | { phase: 'signedIn'; session: Session };

/** Where a visit starts: a login code from GitHub, the tab's stored credential, or nothing. */
async function resume(): Promise<AuthState> {
  const code = takeLoginCode();
  if (code) {
    try {
      const session = await exchangeLoginCode(code);
      storeToken(session.token);
      return { phase: 'signedIn', session };
    } catch (error) {
      const why = error instanceof UnauthorizedError ? 'the sign-in link has expired or was already used.' : describeError(error);
      return { phase: 'signedOut', notice: `GitHub sign-in did not finish: ${why} Please sign in again.` };
    }
  }
  const token = storedToken();
  if (!token) return { phase: 'signedOut' };
  try {
    return { phase: 'signedIn', session: await sessionFor(token) };
  } catch (error) {
    if (error instanceof UnauthorizedError) forgetToken();
    const notice = error instanceof UnauthorizedError ? 'Your session has ended. Please sign in again.' : describeError(error);
    return { phase: 'signedOut', notice };
  }
}

/** Once per page load: React's development double-run of effects must not spend the login code twice. */
let starting: Promise<AuthState> | null = null;

export function App() {
  const [state, setState] = useState<AuthState>({ phase: 'starting' });
  const token = useRef('');
  token.current = state.phase === 'signedIn' ? state.session.token : '';

  useEffect(() => {
    let live = true;
    void (starting ??= resume()).then((next) => live && setState(next));
    return () => {
      live = false;
    };
  }, []);

  const signedIn = useCallback((session: Session) => {
    storeToken(session.token);
    setState({ phase: 'signedIn', session });
  }, []);

  const expired = useCallback(() => {
    if (!token.current) return;
    token.current = '';
    forgetToken();
    setState({ phase: 'signedOut', notice: 'Your session has ended or the key was revoked. Please sign in again.' });
  }, []);

  const session = state.phase === 'signedIn' ? state.session : null;
  const context = useMemo<SessionContextValue | null>(() => {
    if (!session) return null;
    return {
      session,
      mq: signedInClient(() => token.current, expired),
      admin: isAdmin(session),
      signOut: () => {
        token.current = '';
        void endSession(session);
        setState({ phase: 'signedOut', notice: 'You have signed out.' });
      },
    };
  }, [session, expired]);

  if (state.phase === 'starting') {
    return (
      <div className="grid min-h-screen place-items-center">
        <Loading label="Starting MiniQueue…" />
      </div>
    );
  }
  if (!context) return <SignInPage notice={state.phase === 'signedOut' ? state.notice : undefined} onSignedIn={signedIn} />;
  return (
    <SessionContext.Provider value={context}>
      <Shell />
    </SessionContext.Provider>
  );
}
