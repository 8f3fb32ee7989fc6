import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { api, unwrap } from '../api/client.ts';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { Logo } from '../components/Layout.tsx';

/** Only same-site paths are followed after sign-in (never an absolute URL someone put in the link). */
export function safeNext(next: string | null): string {
  return next?.startsWith('/') && !next.startsWith('//') && !next.startsWith('/sign-in') ? next : '/';
}

export function SignIn() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const email = useRef<HTMLInputElement>(null);
  useEffect(() => email.current?.focus(), []);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(undefined);
    try {
      await unwrap(
        api.POST('/auth/login', {
          body: { email: String(form.get('email')), password: String(form.get('password')) },
        }),
      );
      await queryClient.resetQueries({ queryKey: ['account'] });
      navigate(safeNext(params.get('next')), { replace: true });
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  };

  return (
    <main className="sign-in" id="main">
      <form className="card sign-in-card" onSubmit={submit} aria-labelledby="sign-in-title">
        <div className="brand">
          <Logo />
          <span>Meridian</span>
        </div>
        <h1 id="sign-in-title">Sign in to the console</h1>
        {params.get('expired') ? (
          <p className="notice" role="status">
            Your session ended. Sign in again to continue where you were.
          </p>
        ) : null}
        <label htmlFor="email">Email</label>
        <input ref={email} id="email" name="email" type="email" autoComplete="username" required />
        <label htmlFor="password">Password</label>
        <input id="password" name="password" type="password" autoComplete="current-password" required />
        <ErrorNote error={error} />
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <p className="muted small">
          Accounts are created by the operator: <code>npx meridian users create --email …</code>
        </p>
      </form>
    </main>
  );
}
