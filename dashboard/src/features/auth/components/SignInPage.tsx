import { useState } from 'react';
import type { Info } from '@miniqueue/sdk';
import { anonymousClient } from '../../../lib/client';
import { describeError } from '../../../lib/errors';
import { useResource } from '../../../lib/useResource';
import { useSubmit } from '../../../lib/useSubmit';
import { Button } from '../../../lib/ui/Button';
import { TextField } from '../../../lib/ui/Field';
import { Logo } from '../../../lib/ui/Logo';
import { sessionFor, type Session } from '../api/session';

export function SignInPage({ notice, onSignedIn }: { notice?: string; onSignedIn: (session: Session) => void }) {
  const info = useResource((signal) => anonymousClient().ops.info({ signal }), []);
  return (
    <main className="flex min-h-screen items-start justify-center bg-slate-100 px-4 py-12 sm:items-center">
      <div className="w-full max-w-md">
        <div className="mb-6 flex items-center justify-center gap-2">
          <Logo className="size-9" />
          <span className="text-2xl font-semibold tracking-tight text-slate-900">MiniQueue</span>
        </div>
        <div className="rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
          <h1 className="text-lg font-semibold text-slate-900">Sign in to the dashboard</h1>
          {notice && (
            <p role="status" className="mt-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200">
              {notice}
            </p>
          )}
          {info.data?.github_sign_in && <GithubButton />}
          {info.error !== undefined && (
            <p role="alert" className="mt-4 text-sm text-rose-700">
              {describeError(info.error)}
            </p>
          )}
          <ApiKeyForm onSignedIn={onSignedIn} githubToo={info.data?.github_sign_in ?? false} />
        </div>
        <Footer info={info.data} />
      </div>
    </main>
  );
}

function GithubButton() {
  return (
    <div className="mt-5">
      {/* A navigation, not a fetch: GitHub's consent page must be a full page. */}
      <a
        href={anonymousClient().auth.githubLoginUrl()}
        className="flex w-full items-center justify-center gap-2 rounded-md bg-slate-900 px-4 py-2.5 text-sm font-semibold text-white hover:bg-slate-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900"
      >
        <GithubMark />
        Sign in with GitHub
      </a>
    </div>
  );
}

function ApiKeyForm({ onSignedIn, githubToo }: { onSignedIn: (session: Session) => void; githubToo: boolean }) {
  const [key, setKey] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const submission = useSubmit(() => sessionFor(key.trim()), {
    validate: () => {
      setProblem(key.trim() ? null : 'Enter an API key.');
      return key.trim() !== '';
    },
    onSuccess: onSignedIn,
  });

  return (
    <form onSubmit={submission.onSubmit} className="mt-5 space-y-4" noValidate>
      {githubToo && (
        <div className="flex items-center gap-3 text-xs uppercase tracking-wide text-slate-500">
          <span className="h-px flex-1 bg-slate-200" /> or <span className="h-px flex-1 bg-slate-200" />
        </div>
      )}
      <TextField
        label="Use an API key"
        type="password"
        name="api-key"
        autoComplete="off"
        spellCheck={false}
        placeholder="mq_…"
        value={key}
        onChange={(event) => setKey(event.target.value)}
        error={problem ?? submission.failure}
        hint={
          <>
            On first start the broker prints the <code className="font-mono">bootstrap-admin</code> key, and saves it in{' '}
            <code className="font-mono">.miniqueue/admin-key</code> when it runs on its embedded database. A key with the{' '}
            <code className="font-mono">view</code> scope signs in read-only.
          </>
        }
      />
      <Button type="submit" busy={submission.busy} className="w-full" variant={githubToo ? 'secondary' : 'primary'}>
        Sign in with key
      </Button>
    </form>
  );
}

function Footer({ info }: { info?: Info }) {
  if (!info) return null;
  return (
    <p className="mt-4 text-center text-xs text-slate-500">
      {info.name} {info.version}
      {info.commit !== 'unknown' && <> · {info.commit.slice(0, 7)}</>}
    </p>
  );
}

function GithubMark() {
  return (
    <svg viewBox="0 0 16 16" className="size-4" fill="currentColor" aria-hidden>
      <path d="M8 0C3.58 0 0 3.58 0 8c0 3.54 2.29 6.53 5.47 7.59.4.07.55-.17.55-.38 0-.19-.01-.82-.01-1.49-2.01.37-2.53-.49-2.69-.94-.09-.23-.48-.94-.82-1.13-.28-.15-.68-.52-.01-.53.63-.01 1.08.58 1.23.82.72 1.21 1.87.87 2.33.66.07-.52.28-.87.51-1.07-1.78-.2-3.64-.89-3.64-3.95 0-.87.31-1.59.82-2.15-.08-.2-.36-1.02.08-2.12 0 0 .67-.21 2.2.82.64-.18 1.32-.27 2-.27.68 0 1.36.09 2 .27 1.53-1.04 2.2-.82 2.2-.82.44 1.1.16 1.92.08 2.12.51.56.82 1.27.82 2.15 0 3.07-1.87 3.75-3.65 3.95.29.25.54.73.54 1.48 0 1.07-.01 1.93-.01 2.2 0 .21.15.46.55.38A8.013 8.013 0 0016 8c0-4.42-3.58-8-8-8z" />
    </svg>
  );
}
