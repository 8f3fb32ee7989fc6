import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Navigate, NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { api, onSessionEnded } from '../api/client.ts';
import type { Account } from '../api/types.ts';
import { useAccount } from '../hooks/queries.ts';
import { ErrorNote } from './ErrorNote.tsx';
import { QuotaBanner } from './QuotaBanner.tsx';
import { PageSkeleton } from './Skeleton.tsx';

const here = (location: { pathname: string; search: string }) =>
  encodeURIComponent(location.pathname + location.search);

/**
 * Pages behind sign-in. Without a session — or as soon as any API call says the session ended (401) — the
 * person goes to /sign-in?next=<this page> and comes back here after signing in. A 429 is not an ended session.
 */
export function RequireSession() {
  const account = useAccount();
  const location = useLocation();
  const navigate = useNavigate();

  useEffect(
    () =>
      onSessionEnded(() => {
        // Several calls of one page can answer 401 together: only the first sends the person to sign in (a later
        // one would otherwise make the sign-in page its own `next`).
        if (window.location.pathname === '/sign-in') return;
        // Leave the cached account alone: clearing it would re-render this guard into a plain redirect
        // that loses the "session ended" notice. Signing in again refreshes it.
        navigate(`/sign-in?next=${here(window.location)}&expired=1`, { replace: true });
      }),
    [navigate],
  );

  if (account.isPending) return <PageSkeleton />;
  // Only a 401 means signed out (data null); a 429 or an outage is shown where the person is, with a retry.
  if (account.isError)
    return (
      <main className="page" id="main">
        <ErrorNote error={account.error} onRetry={() => account.refetch()} />
      </main>
    );
  if (!account.data) return <Navigate to={`/sign-in?next=${here(location)}`} replace />;
  return <Outlet context={account.data} />;
}

export function Layout() {
  const account = useAccount().data as Account;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [menuOpen, setMenuOpen] = useState(false);
  const location = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: close the phone menu on every navigation
  useEffect(() => setMenuOpen(false), [location.pathname]);

  const signOut = async () => {
    // Signed out here whatever the server answers (an ended session is just as signed out).
    await api.POST('/auth/logout').catch(() => undefined);
    queryClient.clear();
    queryClient.setQueryData(['account'], null);
    navigate('/sign-in', { replace: true });
  };

  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <NavLink to="/" className="brand" aria-label="Meridian dashboard">
          <Logo />
          <span>Meridian</span>
        </NavLink>
        <button
          type="button"
          className="menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="primary-nav"
          onClick={() => setMenuOpen((open) => !open)}
        >
          Menu
        </button>
        <nav id="primary-nav" aria-label="Primary" className={menuOpen ? 'open' : undefined}>
          <NavLink to="/" end>
            Dashboard
          </NavLink>
          <NavLink to="/symbols/BTCUSDT">Markets</NavLink>
          <NavLink to="/flows">On-chain flows</NavLink>
          <NavLink to="/alerts">Alerts</NavLink>
          <NavLink to="/portfolio">Portfolio</NavLink>
          <NavLink to="/settings/keys">API keys</NavLink>
          <NavLink to="/settings/apps">Apps</NavLink>
          <NavLink to="/organization">Organization</NavLink>
          {account.permissions.includes('users:manage') ? <NavLink to="/audit-log">Audit log</NavLink> : null}
          <div className="account">
            <span className="account-email" title={account.email}>
              {account.email}
            </span>
            <span className="badge">{account.plan}</span>
            <button type="button" className="button ghost small" onClick={signOut}>
              Sign out
            </button>
          </div>
        </nav>
      </header>
      <main id="main" tabIndex={-1}>
        <QuotaBanner />
        <Outlet />
      </main>
    </div>
  );
}

export function Logo() {
  return (
    <svg width="28" height="28" viewBox="0 0 32 32" aria-hidden="true">
      <rect width="32" height="32" rx="7" fill="var(--accent)" />
      <path
        d="M7 22 13 12l5 7 3-4 4 7"
        fill="none"
        stroke="white"
        strokeWidth="2.5"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
