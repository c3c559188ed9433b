import { useEffect, useState } from 'react';
import { Link, usePath } from '../lib/router';
import { Button } from '../lib/ui/Button';
import { Logo } from '../lib/ui/Logo';
import { ConnectionIndicator } from '../features/live/components/ConnectionIndicator';
import { MonitorProvider } from '../features/live/components/MonitorProvider';
import { ReachabilityProvider } from '../features/health/components/ReachabilityProvider';
import { StaleFrame } from '../features/health/components/StaleFrame';
import { UnreachableBanner } from '../features/health/components/UnreachableBanner';
import { matches, menuEntryOf, ROUTES, routesFor, type Route } from './routes';
import { useSession } from './session';

export function Shell() {
  const { admin } = useSession();
  const { pathname } = usePath();
  const [menuOpen, setMenuOpen] = useState(false);
  const routes = routesFor(admin);
  const current = routes.find((route) => matches(route, pathname));

  useEffect(() => setMenuOpen(false), [pathname]);
  useEffect(() => {
    document.title = current ? `${current.label} · MiniQueue` : 'MiniQueue';
  }, [current]);

  const Page = current?.page ?? (ROUTES.some((route) => matches(route, pathname)) ? AdminOnly : NotFound);
  return (
    <MonitorProvider>
      <ReachabilityProvider>
        <div className="min-h-screen lg:flex">
          <a
            href="#main"
            className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
          >
            Skip to content
          </a>
          <aside className="border-b border-slate-200 bg-white lg:w-60 lg:shrink-0 lg:border-b-0 lg:border-r">
            <div className="lg:sticky lg:top-0 lg:max-h-screen lg:overflow-y-auto">
              <div className="flex items-center justify-between gap-2 px-4 py-3 lg:py-5">
                <Link href="/" className="flex items-center gap-2 font-semibold tracking-tight text-slate-900">
                  <Logo />
                  MiniQueue
                </Link>
                <div className="flex items-center gap-2 lg:hidden">
                  <ConnectionIndicator />
                  <Button variant="ghost" size="sm" aria-expanded={menuOpen} aria-controls="main-nav" onClick={() => setMenuOpen(!menuOpen)}>
                    {menuOpen ? 'Close' : 'Menu'}
                  </Button>
                </div>
              </div>
              {/* Choosing a page closes the menu, the page already shown included (its path does not change). */}
              <Nav routes={routes} pathname={pathname} open={menuOpen} onChoose={() => setMenuOpen(false)} />
            </div>
          </aside>
          <div className="min-w-0 flex-1">
            <TopBar />
            <main id="main" className="mx-auto max-w-7xl px-4 py-6 sm:px-6 lg:px-8">
              <UnreachableBanner />
              <StaleFrame>
                <Page />
              </StaleFrame>
            </main>
          </div>
        </div>
      </ReachabilityProvider>
    </MonitorProvider>
  );
}

function Nav({ routes, pathname, open, onChoose }: { routes: Route[]; pathname: string; open: boolean; onChoose: () => void }) {
  const sections = ['Operations', 'Management'] as const;
  const entry = menuEntryOf(routes, pathname);
  return (
    <nav id="main-nav" aria-label="Main" className={`${open ? 'block' : 'hidden'} px-2 pb-3 lg:block`}>
      {sections.map((section) => (
        <div key={section} className="mt-2 first:mt-0 lg:mt-5">
          <p className="px-2 pb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">{section}</p>
          <ul className="space-y-0.5">
            {routes
              .filter((route) => route.section === section && route.inMenu !== false)
              .map((route) => {
                const active = route === entry;
                return (
                  <li key={route.path}>
                    <Link
                      href={route.path}
                      onClick={onChoose}
                      aria-current={active ? 'page' : undefined}
                      className={`block rounded-md px-2 py-1.5 text-sm font-medium ${active ? 'bg-indigo-50 text-indigo-700' : 'text-slate-700 hover:bg-slate-100'}`}
                    >
                      {route.label}
                    </Link>
                  </li>
                );
              })}
          </ul>
        </div>
      ))}
    </nav>
  );
}

function TopBar() {
  const { session, admin, signOut } = useSession();
  return (
    <div className="flex flex-wrap items-center justify-end gap-3 border-b border-slate-200 bg-white/80 px-4 py-2 sm:px-6 lg:px-8">
      <span className="hidden lg:inline-flex">
        <ConnectionIndicator />
      </span>
      <span className="flex min-w-0 items-center gap-2 text-sm text-slate-700">
        <span className="truncate font-medium" data-testid="who">
          {session.name}
        </span>
        <span
          className={`rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${admin ? 'bg-indigo-50 text-indigo-700 ring-indigo-200' : 'bg-slate-50 text-slate-600 ring-slate-200'}`}
          data-testid="role"
        >
          {admin ? 'admin' : 'viewer'}
        </span>
      </span>
      <Button variant="secondary" size="sm" onClick={signOut}>
        Sign out
      </Button>
    </div>
  );
}

function NotFound() {
  return (
    <div className="py-16 text-center">
      <h1 className="text-lg font-semibold text-slate-900">No such page</h1>
      <p className="mt-1 text-sm text-slate-600">
        <Link href="/" className="text-indigo-700 underline">
          Go to the overview
        </Link>
      </p>
    </div>
  );
}

function AdminOnly() {
  return (
    <div className="py-16 text-center">
      <h1 className="text-lg font-semibold text-slate-900">This page is for administrators</h1>
      <p className="mt-1 text-sm text-slate-600">You are signed in with view access: you can see everything, but not change it.</p>
    </div>
  );
}
