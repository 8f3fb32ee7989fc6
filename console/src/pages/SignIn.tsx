import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { api, unwrap } from '../api/client.ts';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { Logo } from '../components/Layout.tsx';
import { ssoErrorMessage } from '../lib/sso.ts';

/** Only same-site paths are followed after sign-in (never an absolute URL someone put in the link). */
export function safeNext(next: string | null): string {
  return next?.startsWith('/') && !next.startsWith('//') && !next.startsWith('/sign-in') ? next : '/';
}

export function SignIn() {
  const [params] = useSearchParams();
  // How this server signs people in; if the server cannot say, the password form is offered as before.
  const methods = useQuery({
    queryKey: ['sign-in-methods'],
    queryFn: () => unwrap(api.GET('/auth/methods')),
    retry: false,
    staleTime: 30_000,
  });
  const ssoError = params.get('sso_error');
  const sso = methods.data?.sso ?? undefined;
  const password = methods.data?.password ?? methods.isError;
  const next = safeNext(params.get('next'));

  return (
    <main className="sign-in" id="main">
      <div className="card sign-in-card">
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
        {ssoError ? (
          <div className="error-note" role="alert">
            <strong>{ssoErrorMessage(ssoError, sso?.name ?? 'the sign-in provider')}</strong>
          </div>
        ) : null}
        {sso?.available ? (
          <a className="button primary" href={`${sso.startUrl}?next=${encodeURIComponent(next)}`}>
            Sign in with {sso.name}
          </a>
        ) : sso ? (
          <p className="notice" role="status">
            Sign-in with {sso.name} is not available: {sso.message ?? 'the provider cannot be reached.'}
          </p>
        ) : null}
        {sso && password ? <p className="muted small sign-in-or">or with your email and password</p> : null}
        {password ? <PasswordForm next={next} /> : null}
        {methods.data && !password && !sso ? (
          <p className="notice" role="status">
            Console sign-in is turned off on this server. API tokens still work: ask the operator for one.
          </p>
        ) : null}
      </div>
    </main>
  );
}

function PasswordForm({ next }: { next: string }) {
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
      navigate(next, { replace: true });
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  };

  return (
    <form className="sign-in-form" onSubmit={submit} aria-labelledby="sign-in-title">
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
  );
}
